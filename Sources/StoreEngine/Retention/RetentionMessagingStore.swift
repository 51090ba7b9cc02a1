import Foundation

/// Where Retention Messaging's configuration lives: one device value of the ledger
/// (``RetentionMessagingStore/key``, the configuration as JSON), so every process on the same
/// ledger — a TUI on another host of a PostgreSQL team sandbox too — reads what `storefront serve`
/// stored, and the change travels the commit log as any other device value does (DECISIONS §41,
/// §44, §45).
///
/// The store holds a ledger connection of its own and uses it only under its lock, so the API's
/// thread and a performance test's threads may share it. A read-modify-write commits only if the
/// value is still the one it read (``LedgerChange/expectDeviceValue(key:value:)``), and is redone
/// on the newer value otherwise, so two servers changing it at once both keep their change.
public final class RetentionMessagingStore: @unchecked Sendable {
  /// The device value's key.
  public static let key = "retention.messaging"
  private let lock = NSLock()
  private let ledger: any LedgerStore

  /// A store over `ledger`: a connection no one else uses.
  public init(ledger: any LedgerStore) {
    self.ledger = ledger
  }

  /// Why the configuration could not be read or written.
  public struct WriteError: Error, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// What is stored (empty when nothing is, or the ledger cannot be read).
  public func read() -> RetentionMessaging {
    lock.withLock { (try? ledger.load()).flatMap { Self.decode($0.deviceValues[Self.key]) } ?? RetentionMessaging() }
  }

  /// Changes what is stored and returns what `change` returned; nothing is written when nothing changed.
  @discardableResult
  public func update<Result>(_ change: (inout RetentionMessaging) -> Result) throws(WriteError) -> Result {
    lock.lock()
    defer { lock.unlock() }
    var attempt = 1
    while true {
      let snapshot: LedgerSnapshot
      do { snapshot = try ledger.load() } catch { throw WriteError(description: "Cannot read the ledger: \(error).") }
      let stored = snapshot.deviceValues[Self.key]
      var value = Self.decode(stored) ?? RetentionMessaging()
      let before = value
      let result = change(&value)
      guard value != before else { return result }
      guard let text = Self.encode(value) else { throw WriteError(description: "Cannot encode the Retention Messaging configuration.") }
      do {
        try ledger.commit([.expectDeviceValue(key: Self.key, value: stored), .setDeviceValue(key: Self.key, value: text)])
        return result
      } catch LedgerError.deviceValueChanged where attempt < Self.attempts {
        // Another process changed the configuration since it was read: apply the change to theirs.
        attempt += 1
      } catch {
        throw WriteError(description: "Cannot write the ledger: \(error).")
      }
    }
  }

  /// How many times a change is redone on a value another process changed meanwhile.
  static let attempts = 8

  /// The configuration a device value holds (nil: none, or one this build cannot read).
  public static func decode(_ text: String?) -> RetentionMessaging? {
    guard let text, !text.isEmpty else { return nil }
    return try? JSONDecoder().decode(RetentionMessaging.self, from: Data(text.utf8))
  }

  /// The device value of `value`.
  public static func encode(_ value: RetentionMessaging) -> String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) }
  }

  /// What ``importLegacyFile(from:)`` did.
  public enum LegacyImport: Equatable, Sendable {
    /// No `retention-messaging.json` in the directory.
    case none
    /// The file's configuration is in the ledger now; the file was renamed to `renamedTo`.
    case imported(renamedTo: String)
    /// The ledger holds a configuration already: the file was left as it is (and is not read).
    case ignored(path: String)
    /// The file could not be imported.
    case failed(String)

    /// A line for stderr, if there is something to say.
    public var message: String? {
      switch self {
      case .none: nil
      case .imported(let renamed):
        "storefront: imported Retention Messaging's configuration from \(RetentionMessagingFile.fileName) into the ledger; the file is kept as '\(renamed)' and no longer read."
      case .ignored(let path):
        "storefront: '\(path)' is no longer read: the ledger holds Retention Messaging's configuration. Delete the file."
      case .failed(let reason): "storefront: cannot import \(RetentionMessagingFile.fileName): \(reason)"
      }
    }
  }

  /// The configuration an earlier build kept in the data directory's `retention-messaging.json`:
  /// when the ledger holds none, it is imported (once: the file is renamed
  /// `retention-messaging.json.imported`); when it holds one, the file is left alone and not read.
  @discardableResult
  public func importLegacyFile(from directory: URL) -> LegacyImport {
    let file = RetentionMessagingFile(directory: directory)
    guard FileManager.default.fileExists(atPath: file.path) else { return .none }
    let legacy = file.read()
    let renamed = file.path + ".imported"
    do {
      let imported = try update { state -> Bool in
        guard state == RetentionMessaging() else { return false }
        state = legacy
        return true
      }
      guard imported else { return .ignored(path: file.path) }
    } catch {
      return .failed(error.description)
    }
    try? FileManager.default.removeItem(atPath: renamed)
    do { try FileManager.default.moveItem(atPath: file.path, toPath: renamed) } catch {
      return .failed("imported, but cannot rename '\(file.path)': \(error.localizedDescription)")
    }
    return .imported(renamedTo: renamed)
  }
}
