import Foundation
import SandboxSigning

#if canImport(Glibc)
  import Glibc
#endif

/// The app-specific shared secret `verifyReceipt` checks `password` against: 32 lower-case hex
/// digits in the data directory's `shared-secret` file (mode 0600), made on first use; on a shared
/// ledger an item of the team's ``SecretStorage`` instead (sealed), so every machine's serve checks
/// the same one. Kept out of the ledger: it is a credential like the API keys, not store state.
public struct SharedSecretStore: Sendable {
  public static let fileName = "shared-secret"
  /// The file's path (unused with a shared storage).
  public let path: String
  /// The shared storage, or nil for the file.
  public let storage: (any SecretStorage)?

  /// Why the secret could not be written, naming the file.
  public struct WriteError: Error, CustomStringConvertible {
    public var description: String
  }

  public init(directory: URL, storage: (any SecretStorage)? = nil) {
    path = directory.appendingPathComponent(Self.fileName).path
    self.storage = storage
  }

  /// Where the secret is, as messages name it.
  public var location: String { storage?.describe(Self.fileName) ?? path }

  /// The secret stored, or nil when none was made (or none can be read).
  public func read() -> String? {
    let data = if let storage { Self.stored(in: storage) } else { FileManager.default.contents(atPath: path) }
    guard let data else { return nil }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? nil : text
  }

  /// The secret stored, made from `randomBytes` (16 bytes) when there is none (once, when two
  /// machines ask at the same time on a shared storage).
  public func readOrCreate(randomBytes: () -> [UInt8]) throws(WriteError) -> String {
    guard let storage else {
      if let secret = read() { return secret }
      return try rotate(randomBytes: randomBytes)
    }
    do {
      return try storage.withLock {
        if let secret = read() { return secret }
        return try rotate(randomBytes: randomBytes)
      }
    } catch let error as WriteError {
      throw error
    } catch {
      throw WriteError(description: "Cannot write \(location): \(error)")
    }
  }

  /// Replaces the secret with a new one from `randomBytes` (16 bytes); the old one stops working at
  /// once, for every serve on the data directory (or the shared ledger).
  @discardableResult
  public func rotate(randomBytes: () -> [UInt8]) throws(WriteError) -> String {
    let secret = randomBytes().map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
    try write(Data((secret + "\n").utf8))
    return secret
  }

  private static func stored(in storage: any SecretStorage) -> Data? {
    guard let present = try? storage.present([fileName]), !present.isEmpty else { return nil }
    return try? storage.read(fileName)
  }

  /// Writes with mode 0600 from the first byte and renames into place (or seals it into the storage).
  private func write(_ data: Data) throws(WriteError) {
    if let storage {
      do {
        try storage.writeAll([(Self.fileName, data)], keys: [Self.fileName])
      } catch {
        throw WriteError(description: "Cannot write \(location): \(error)")
      }
      return
    }
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
