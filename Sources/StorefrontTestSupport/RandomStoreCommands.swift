import Foundation
import StoreEngine

/// Seeded random command sequences over the fixture catalog, for property tests that compare what
/// the store answers from its present with what the whole history says.
public enum RandomStoreCommands {
  static let products = [
    FixtureCatalog.removeAds, FixtureCatalog.coins, FixtureCatalog.seasonPass, FixtureCatalog.monthly, FixtureCatalog.yearly,
  ]

  /// One command drawn from `generator`, aimed at transactions `queue`'s ledger holds (refused
  /// commands are part of a sequence too). Reads the whole history to aim: a test's ledger is small.
  public static func next(_ generator: inout SplitMix64, on queue: PaymentQueue) -> StoreCommand {
    let history = (try? queue.ledger.allTransactions()) ?? []
    func pick(_ list: [PaymentTransaction]) -> PaymentTransaction.ID {
      list.isEmpty ? (history.first?.id ?? PaymentTransaction.ID(1)) : list[Int(generator.next() % UInt64(list.count))].id
    }
    let product = products[Int(generator.next() % UInt64(products.count))]
    let subscriptions = history.filter { $0.productKind == .autoRenewableSubscription }
    switch generator.next() % 24 {
    case 0, 1, 2, 3: return .buy(Payment(productID: product, quantity: generator.next() % 6 == 0 ? 2 : 1))
    case 4, 5, 6: return .finish(pick(history.filter { !$0.isFinished }))
    case 7, 8: return .advance(to: queue.now.addingTimeInterval([3_600, 86_400, 8 * 86_400, 31 * 86_400][Int(generator.next() % 4)]))
    case 9: return .renewSubscription(pick(subscriptions))
    case 10: return .expireSubscription(pick(subscriptions))
    case 11: return .setAutoRenew(pick(subscriptions), generator.next() % 2 == 0)
    case 12: return .refund(pick(history), reason: 0)
    case 13: return .setControl(.billingRetry(generator.next() % 2 == 0))
    case 14: return .setControl(.gracePeriod(generator.next() % 2 == 0))
    case 15: return .resolveBillingIssue(pick(subscriptions))
    case 16: return .setControl(.askToBuy(generator.next() % 3 == 0))
    case 17: return generator.next() % 2 == 0 ? .approve(pick(history), after: nil) : .decline(pick(history), after: nil)
    case 18: return .priceIncrease(pick(subscriptions), generator.next() % 2 == 0 ? .request : .accept, price: nil)
    case 19: return .restore
    case 20: return .relaunch
    case 21: return .signIn(generator.next() % 3 == 0 ? "other" : "tester", password: nil)
    case 22: return .setControl(.interruptedPurchases(generator.next() % 4 == 0))
    default: return generator.next() % 8 == 0 ? .clearHistory(account: nil) : .resolve(pick(history))
    }
  }
}
