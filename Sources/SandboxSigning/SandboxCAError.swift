/// Why the sandbox certificate authority could not be opened.
public enum SandboxCAError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Some of the CA's files exist and others are missing.
  case incomplete(directory: String, missing: [String])
  /// A file exists but is unreadable, not what it should be, or does not fit the rest of the chain.
  case corrupt(file: String, reason: String)
  /// The path for the CA is not a directory.
  case notADirectory(path: String)
  /// The directory or a key file is readable by others and its mode could not be tightened.
  case insecurePermissions(path: String, mode: String)
  /// Creating, writing or changing a file failed.
  case fileSystem(path: String, detail: String)

  /// The advice shared by every "damaged CA" message: regeneration is explicit because a new root
  /// invalidates every JWS signed with the old one.
  public static let regenerateAdvice =
    "Storefront does not replace a certificate authority on its own, because a new root invalidates every "
    + "transaction signed with the old one. To start over with a new root, run the command again with "
    + "--regenerate-ca, then export the new root with 'storefront certificate' and give it to your server."

  public var description: String {
    switch self {
    case .incomplete(let directory, let missing):
      let list = missing.map { "'\($0)'" }.joined(separator: ", ")
      return "The sandbox certificate authority in '\(directory)' is incomplete: \(list) "
        + (missing.count == 1 ? "is" : "are") + " missing. " + Self.regenerateAdvice
    case .corrupt(let file, let reason):
      return "The sandbox certificate authority file '\(file)' is damaged: \(reason). " + Self.regenerateAdvice
    case .notADirectory(let path):
      return "'\(path)' is not a directory; the sandbox certificate authority needs a directory there. "
        + "Move the file away or choose another --data-dir."
    case .insecurePermissions(let path, let mode):
      return "'\(path)' has mode \(mode), readable by other users, and Storefront could not change it. "
        + "Run 'chmod go-rwx \(path)' and try again."
    case .fileSystem(let path, let detail):
      return "Could not write '\(path)': \(detail). Check that the data directory is writable."
    }
  }
}
