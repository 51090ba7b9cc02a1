import Foundation
import XCTest

/// One transaction as `storefront transactions --json` or a `run --json` event shows it.
struct TransactionRecord: Equatable {
  var id: String
  var originalID: String
  var productID: String
  var account: String
  var state: String
  var finished: Bool
  var revoked: Bool
  var quantity: Int

  init?(json: [String: Any]) {
    guard let id = json["transactionId"] as? String, let productID = json["productId"] as? String else { return nil }
    self.id = id
    originalID = json["originalTransactionId"] as? String ?? id
    self.productID = productID
    account = json["account"] as? String ?? ""
    state = json["state"] as? String ?? ""
    finished = json["finished"] as? Bool ?? false
    revoked = json["revocationDate"] != nil
    quantity = json["quantity"] as? Int ?? 1
  }
}

/// Parses one JSON line; nil for anything else.
func jsonObject(_ line: String) -> [String: Any]? {
  (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}

/// What the ledger of a data directory holds, read through the real binary.
struct LedgerView {
  var transactions: [TransactionRecord]
  var byID: [String: TransactionRecord]

  /// `storefront transactions --json [--all]`.
  static func read(_ dataDir: URL, all: Bool = true) throws -> LedgerView {
    let result = try StorefrontProcess.run(
      ["transactions", "--json", "--data-dir", dataDir.path] + (all ? ["--all"] : []))
    if result.status == 66 { return LedgerView(transactions: [], byID: [:]) }
    guard result.status == 0 else {
      throw Failure("transactions exited \(result.status): \(result.stderr)")
    }
    let records = result.lines.compactMap { jsonObject($0).flatMap(TransactionRecord.init(json:)) }
    guard records.count == result.lines.count else {
      throw Failure("transactions printed a line that is not a transaction: \(result.stdout.prefix(300))")
    }
    var byID: [String: TransactionRecord] = [:]
    for record in records {
      guard byID[record.id] == nil else { throw Failure("transaction \(record.id) is in the ledger twice") }
      byID[record.id] = record
    }
    return LedgerView(transactions: records, byID: byID)
  }

  /// `PRAGMA integrity_check` through the sqlite3 CLI.
  static func integrity(_ dataDir: URL) throws -> String {
    let file = dataDir.appendingPathComponent("ledger.sqlite")
    guard FileManager.default.fileExists(atPath: file.path) else { return "ok" }
    return try Shell.sqlite(file, "PRAGMA integrity_check;")
  }

  /// Non-consumables charged more than once for one account: (account, product) with more than one
  /// original, unrefunded purchase.
  func doubleCharges(nonConsumables: Set<String>) -> [String] {
    var counts: [String: Int] = [:]
    for t in transactions where nonConsumables.contains(t.productID) && t.id == t.originalID && t.state == "purchased" && !t.revoked {
      counts["\(t.account) \(t.productID)", default: 0] += 1
    }
    return counts.filter { $0.value > 1 }.map { "\($0.key) ×\($0.value)" }.sorted()
  }
}

/// A test failure with a message.
struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The 20-line seeded generator (SplitMix64), so every kill point is reproducible from the seed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
