import Foundation
import StoreEngine
import StorefrontTestSupport
import Testing

/// `PaymentQueue.entitlements` reads the present (working set, consumable counters, grace); after
/// any command sequence it equals `Entitlements(history:at:)` over the account's whole history,
/// for the signed-in account and any other, in the process that made the history and in a fresh
/// one opened on the same ledger.
@Suite struct PresentEntitlementsPropertyTests {
  static let accounts = ["tester", "other"]

  /// The reference: the whole history, plus B39's grace (which the records decide, not the rows).
  static func reference(_ queue: PaymentQueue, account: String) throws -> Entitlements {
    let records = try queue.ledger.load().subscriptions.filter { $0.account == account }
    var expected = Entitlements(history: try queue.ledger.history(account: account), subscriptions: records, at: queue.now)
    for transaction in queue.machine.gracePeriodTransactions(account: account) {
      expected.owning[transaction.productID] = transaction
    }
    return expected
  }

  /// Each owned product's granting row, readably.
  static func text(_ entitlements: Entitlements) -> String {
    let owning = entitlements.owning.sorted { $0.key.rawValue < $1.key.rawValue }.map { product, row in
      "\(product.rawValue.split(separator: ".").last ?? "")=\(row.id)/\(row.originalID) \(row.state.name)\(row.isFinished ? " fin" : "")\(row.revocationDate == nil ? "" : " revoked")\(row.isUpgraded ? " upgraded" : "") exp \(row.expiresDate.map { "\($0)" } ?? "-")"
    }
    return "[\(owning.joined(separator: "; "))] \(entitlements.consumableCounts.values.sorted())"
  }

  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func equalsTheWholeHistorysAnswer(seed: UInt64) throws {
    let store = try TestStore()
    var generator = SplitMix64(seed: seed &* 7_919)
    var steps: [String] = []
    for _ in 0..<150 {
      let command = RandomStoreCommands.next(&generator, on: store.queue)
      steps.append("\(command)")
      _ = try? store.queue.perform(command)
      let fresh = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: store.ledger, environment: TestStore.environment)
      for account in Self.accounts {
        let expected = try Self.reference(store.queue, account: account)
        let actual = try store.queue.entitlements(account: account)
        #expect(actual == expected, "seed \(seed) \(account): \(Self.text(actual)) vs \(Self.text(expected)) after \(steps.suffix(4))")
        let relaunched = try fresh.entitlements(account: account)
        #expect(relaunched == expected, "seed \(seed) \(account), fresh launch: \(Self.text(relaunched)) vs \(Self.text(expected)) after \(steps.suffix(4))")
        if actual != expected || relaunched != expected { return }
      }
    }
  }
}
