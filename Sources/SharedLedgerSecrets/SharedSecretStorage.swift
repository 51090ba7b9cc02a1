import Foundation
public import PostgreSQLLedger
public import SandboxSigning
import StoreEngine

/// The sandbox CA and the promotional-offer key in the shared database (``PostgreSQLSecretTable``),
/// so every machine on the ledger signs with the same chain; private keys are sealed with the
/// team's key-encryption key (AES-256-GCM) before they leave the machine.
///
/// Shared by the command line and the `StoreKit` library of an app attached to a shared ledger.
public struct SharedSecretStorage: SecretStorage {
  /// Why the shared CA cannot be used.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
  }

  public let table: PostgreSQLSecretTable
  public let sealer: SecretSealer

  public init(table: PostgreSQLSecretTable, sealer: SecretSealer) {
    self.table = table
    self.sealer = sealer
  }

  /// The key-encryption key: `keyFile` (`--key-file`), else `$STOREFRONT_KEY_ENCRYPTION_KEY`, else
  /// the file `$STOREFRONT_KEY_FILE`; an error naming what to set when there is none.
  public static func sealer(keyFile: String?, environment: [String: String], ledger: String) throws(Failure) -> SecretSealer {
    func fromFile(_ path: String, source: String) throws(Failure) -> SecretSealer {
      let text: String
      do {
        text = try String(contentsOfFile: path, encoding: .utf8)
      } catch {
        throw Failure(description: "the key-encryption key file '\(path)' (\(source)) cannot be read: \(error.localizedDescription)")
      }
      do throws(SecretSealer.Failure) {
        return try SecretSealer(text: text, source: "'\(path)'")
      } catch {
        throw Failure(description: error.description)
      }
    }
    if let path = keyFile { return try fromFile(path, source: "--key-file") }
    if let text = environment["STOREFRONT_KEY_ENCRYPTION_KEY"], !text.isEmpty {
      do throws(SecretSealer.Failure) {
        return try SecretSealer(text: text, source: "$STOREFRONT_KEY_ENCRYPTION_KEY")
      } catch {
        throw Failure(description: error.description)
      }
    }
    if let path = environment["STOREFRONT_KEY_FILE"], !path.isEmpty { return try fromFile(path, source: "$STOREFRONT_KEY_FILE") }
    throw Failure(
      description:
        "the shared ledger \(ledger) keeps the sandbox CA's private keys encrypted, and no key-encryption key is set: set $STOREFRONT_KEY_ENCRYPTION_KEY to the team's key (64 hex digits; the first machine can make one with `openssl rand -hex 32`), or pass --key-file / set $STOREFRONT_KEY_FILE to a file holding it")
  }

  public func withLock<Result>(_ body: () throws -> Result) throws -> Result { try table.withLock(body) }

  public func present(_ names: [String]) throws -> [String] {
    let found = try table.values(names)
    return names.filter { found[$0] != nil }
  }

  public func read(_ name: String) throws -> Data {
    guard let value = try table.values([name])[name] else {
      throw SandboxCAError.incomplete(directory: location, missing: [name])
    }
    guard SecretSealer.isSealed(value) else { return Data(value.utf8) }
    do throws(SecretSealer.Failure) {
      return try sealer.open(value, name: name)
    } catch {
      throw Failure(description: "\(error.description) (\(describe(name)))")
    }
  }

  public func writeAll(_ items: [(String, Data)], keys: Set<String>) throws {
    var rows: [(name: String, value: String)] = []
    for (name, contents) in items {
      rows.append((name, keys.contains(name) ? try sealer.seal(contents, name: name) : String(decoding: contents, as: UTF8.self)))
    }
    try table.put(rows)
  }

  public func describe(_ name: String) -> String { "\(name) in \(table.name)" }

  public var location: String { table.name }
}
