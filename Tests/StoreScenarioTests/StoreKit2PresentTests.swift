import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import Testing

/// StoreKit 2's queries answered from the present (`StoreKit2Queries.…(of: queue)`) equal the
/// history functions over the whole history, after any command sequence, live and after a relaunch.
@Suite struct StoreKit2PresentTests {
  static let products = [
    FixtureCatalog.removeAds, FixtureCatalog.coins, FixtureCatalog.seasonPass, FixtureCatalog.monthly, FixtureCatalog.yearly,
  ]

  static func ids(_ rows: [PaymentTransaction]) -> [PaymentTransaction.ID] { rows.map(\.id) }

  /// Every query's answer from the present next to the whole history's; nil when they agree.
  static func difference(_ queue: PaymentQueue) throws -> String? {
    guard let account = queue.currentAccount else { return nil }
    let history = try queue.ledger.history(account: account)
    let records = queue.subscriptions()
    let entitlements = ids(StoreKit2Queries.currentEntitlements(of: queue))
    let reference = ids(StoreKit2Queries.currentEntitlements(history: history, subscriptions: records))
    if entitlements != reference { return "currentEntitlements \(entitlements) vs \(reference)" }
    for product in products {
      let latest = try StoreKit2Queries.latest(for: product, of: queue)?.id
      let expected = StoreKit2Queries.latest(for: product, history: history)?.id
      if latest != expected { return "latest(for: \(product)) \(String(describing: latest)) vs \(String(describing: expected))" }
    }
    let statuses = try StoreKit2Queries.statuses(group: FixtureCatalog.group, of: queue).map { "\($0.record.originalID):\($0.transaction?.id.description ?? "-")" }
    let expected = StoreKit2Queries.statuses(group: FixtureCatalog.group, history: history, subscriptions: records)
      .map { "\($0.record.originalID):\($0.transaction?.id.description ?? "-")" }
    if statuses != expected { return "statuses \(statuses) vs \(expected)" }
    return nil
  }

  @Test(arguments: 1...10 as ClosedRange<UInt64>)
  func equalTheWholeHistorysAnswers(seed: UInt64) throws {
    let store = try TestStore()
    var generator = SplitMix64(seed: seed &* 104_729)
    var steps: [String] = []
    for _ in 0..<150 {
      let command = RandomStoreCommands.next(&generator, on: store.queue)
      steps.append("\(command)")
      _ = try? store.queue.perform(command)
      let fresh = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: store.ledger, environment: TestStore.environment)
      for (label, queue) in [("live", store.queue), ("fresh launch", fresh)] {
        let difference = try Self.difference(queue)
        #expect(difference == nil, "seed \(seed) \(label): \(difference ?? "") after \(steps.suffix(4))")
        if difference != nil {
          let rows = try store.ledger.history(account: queue.currentAccount ?? "").map {
            "\($0.id)/\($0.originalID) \($0.productID.rawValue.split(separator: ".").last ?? "") \($0.state.name)\($0.isFinished ? " fin" : "")\($0.revocationDate == nil ? "" : " revoked") \($0.purchaseDate.timeIntervalSince1970) exp \($0.expiresDate.map { "\($0.timeIntervalSince1970)" } ?? "-")"
          }
          Issue.record("history: \(rows) records: \(queue.subscriptions().map { "\($0.originalID) \($0.status)" }) present: \(queue.presentTransactions().map(\.id))")
          return
        }
      }
    }
  }
}
