import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The app-specific shared secret `verifyReceipt` checks `password` against: 32 lower-case hex
/// digits in the data directory's `shared-secret` file (mode 0600), made on first use. Kept out of
/// the ledger: it is a credential like the API keys, not store state.
public struct SharedSecretFile: Sendable {
  public static let fileName = "shared-secret"
  /// The file's path.
  public let path: String

  /// Why the secret could not be written, naming the file.
  public struct WriteError: Error, CustomStringConvertible {
    public var description: String
  }

  public init(directory: URL) {
    path = directory.appendingPathComponent(Self.fileName).path
  }

  /// The secret on file, or nil when none was made (or the file holds no secret).
  public func read() -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? nil : text
  }

  /// The secret on file, made from `randomBytes` (16 bytes) when there is none.
  public func readOrCreate(randomBytes: () -> [UInt8]) throws(WriteError) -> String {
    if let secret = read() { return secret }
    return try rotate(randomBytes: randomBytes)
  }

  /// Replaces the secret with a new one from `randomBytes` (16 bytes); the old one stops working at
  /// once, for every serve on the data directory.
  @discardableResult
  public func rotate(randomBytes: () -> [UInt8]) throws(WriteError) -> String {
    let secret = randomBytes().map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
    try write(Data((secret + "\n").utf8))
    return secret
  }

  /// Writes with mode 0600 from the first byte and renames into place.
  private func write(_ data: Data) throws(WriteError) {
    let directory = (path as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let temporary = "\(directory)/.\(Self.fileName).\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw WriteError(description: "Cannot write '\(path)': \(String(cString: strerror(errno))). Check the data directory's permissions.") }
    let written = data.withUnsafeBytes { raw in raw.baseAddress.map { Foundation.write(descriptor, $0, raw.count) } ?? 0 }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == data.count, synced, rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw WriteError(description: "Cannot write '\(path)': \(reason). Check the data directory's permissions.")
    }
  }
}
