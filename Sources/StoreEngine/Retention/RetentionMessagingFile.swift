import Foundation

/// The data directory's `retention-messaging.json` of earlier builds, read once to import it into the
/// ledger (``RetentionMessagingStore/importLegacyFile(from:)``). Formerly: what `storefront serve`'s Retention Messaging
/// API stored, read by every storefront process that shows a cancel sheet. Every read-modify-write
/// holds an exclusive `flock` (as the fault plan's file does), so two servers or a server and a
/// performance test never lose each other's change.
public struct RetentionMessagingFile: Sendable {
  public static let fileName = "retention-messaging.json"
  /// The file's path.
  public let path: String

  /// The file of the data directory `directory`.
  public init(directory: URL) {
    path = directory.appendingPathComponent(Self.fileName).path
  }

  /// Why the file could not be written, naming it.
  public struct WriteError: Error, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// What is stored (empty without a file, or with one this build cannot read).
  /// Reads under a shared lock: a writer truncates and rewrites the file in place, so an unlocked
  /// read could see it half written.
  public func read() -> RetentionMessaging {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return RetentionMessaging() }
    defer { close(descriptor) }
    flock(descriptor, LOCK_SH)
    defer { flock(descriptor, LOCK_UN) }
    return (try? JSONDecoder().decode(RetentionMessaging.self, from: Self.contents(of: descriptor))) ?? RetentionMessaging()
  }

  /// Changes what is stored under the file's lock and returns what `change` returned.
  @discardableResult
  public func update<Result>(_ change: (inout RetentionMessaging) -> Result) throws(WriteError) -> Result {
    let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
    guard descriptor >= 0 else { throw WriteError(description: "Cannot write '\(path)': \(String(cString: strerror(errno))).") }
    defer { close(descriptor) }
    flock(descriptor, LOCK_EX)
    defer { flock(descriptor, LOCK_UN) }
    var value = (try? JSONDecoder().decode(RetentionMessaging.self, from: Self.contents(of: descriptor))) ?? RetentionMessaging()
    let before = value
    let result = change(&value)
    guard value != before else { return result }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value), ftruncate(descriptor, 0) == 0 else {
      throw WriteError(description: "Cannot write '\(path)': \(String(cString: strerror(errno))).")
    }
    lseek(descriptor, 0, SEEK_SET)
    let written = data.withUnsafeBytes { raw in raw.baseAddress.map { Foundation.write(descriptor, $0, raw.count) } ?? 0 }
    guard written == data.count else { throw WriteError(description: "Cannot write '\(path)': \(String(cString: strerror(errno))).") }
    return result
  }

  private static func contents(of descriptor: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    lseek(descriptor, 0, SEEK_SET)
    while true {
      let count = Foundation.read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      data.append(contentsOf: buffer[0..<count])
    }
    return data
  }
}
