import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import Testing

/// The `StoreKit` library answers `Transaction.currentEntitlements` and subscription statuses from
/// the present (the working set, and one indexed read per ended chain), not the whole history
/// (issue 35). After any command sequence, in the process that made the history and in a fresh
/// one, those answers equal the whole history's.
@Suite struct PresentStoreKit2QueriesPropertyTests {
  static let accounts = ["tester", "other"]

  /// The latest purchased transaction of each chain of `group`, as the library reads it.
  static func presentStatuses(_ queue: PaymentQueue, group: String, account: String) throws -> [PaymentTransaction.ID?] {
    try StoreKit2Queries.statuses(
      group: group, history: queue.presentTransactions(account: account), subscriptions: queue.subscriptions(account: account)
    ).map { entry in
      let live = entry.record.status != .expired && entry.record.status != .revoked
      return live
        ? entry.transaction?.id
        : try queue.latestTransaction(account: account, matching: TransactionMatch(originalID: entry.record.originalID, state: .purchased))?.id
    }
  }

  @Test(arguments: 1...8 as ClosedRange<UInt64>)
  func equalTheWholeHistorysAnswers(seed: UInt64) throws {
    let store = try TestStore()
    var generator = SplitMix64(seed: seed &* 104_729)
    var steps: [String] = []
    let groups = store.queue.catalog.subscriptionGroups.map(\.id)
    // The comparison means something only when there were entitlements and statuses to compare.
    var entitledSteps = 0
    var statusSteps = 0
    defer {
      #expect(entitledSteps > 0, "seed \(seed): no step had an entitlement")
      #expect(statusSteps > 0, "seed \(seed): no step had a subscription status")
    }
    for _ in 0..<300 {
      let command = RandomStoreCommands.next(&generator, on: store.queue)
      steps.append("\(command)")
      _ = try? store.queue.perform(command)
      let fresh = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: store.ledger, environment: TestStore.environment)
      for account in Self.accounts {
        let history = try store.ledger.history(account: account)
        let records = store.queue.subscriptions(account: account)
        let expected = StoreKit2Queries.currentEntitlements(history: history, subscriptions: records).map(\.id)
        if !expected.isEmpty { entitledSteps += 1 }
        if !records.isEmpty { statusSteps += 1 }
        for queue in [store.queue, fresh] {
          let present = StoreKit2Queries.currentEntitlements(
            history: queue.presentTransactions(account: account), subscriptions: queue.subscriptions(account: account)
          ).map(\.id)
          #expect(present == expected, "seed \(seed) \(account) entitlements after \(steps.suffix(4))")
          for group in groups {
            let whole = StoreKit2Queries.statuses(group: group, history: history, subscriptions: records).map(\.transaction?.id)
            #expect(try Self.presentStatuses(queue, group: group, account: account) == whole, "seed \(seed) \(account) \(group) statuses after \(steps.suffix(4))")
          }
          if present != expected { return }
        }
      }
    }
  }
}
