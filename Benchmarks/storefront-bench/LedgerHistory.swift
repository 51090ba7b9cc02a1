import Foundation
import SQLiteLedger
import StoreEngine

/// A long-used data directory's ledger, written straight to `SQLiteLedgerStore.commit` in a few large
/// batches (no engine purchases): one signed-in tester, `count` transactions in time order, 15 s of
/// virtual time apart, every one signed by the given signing (as the engine signs them: at its
/// purchase date, plus a renewal info for auto-renewables).
///
/// Every four transactions: two consumables (10 products in turn), one non-consumable (10 products
/// in turn: the first time a purchase, afterwards the sandbox's free re-download linked to it), one
/// auto-renewable subscription transaction at `every-1m` (a period is 60 s = four slots, so each
/// lands on the previous period's end). A subscription chain is bought (with its group's free-trial
/// introductory offer), renews ``renewalsPerChain`` times and is cancelled; the next chain is in the
/// next group. So 100,000 transactions are 50,000 consumables, 25,000 non-consumables (24,990
/// re-downloads), 25,000 subscription transactions in 50 chains (24,950 renewals). Everything is
/// finished except the newest ``unfinishedCount`` (the app quit before finishing them).
///
/// ``Layout/samePresent`` is the short ledger to compare with a long ``Layout/longUsed`` one when
/// only the history's length may differ: the same present (50 subscription chains, the newest
/// active and 49 expired, 10 non-consumables, one unfinished consumable and the newest chain's
/// unfinished period) in 100 transactions, the long one's extra transactions being consumables,
/// re-downloads and ended chains' renewals.
///
/// This is the one place that writes the ledger's format (its `LedgerChange`s and the engine's
/// subscription records) without the engine.
enum LedgerHistory {
  static let account = "tester"
  static let spacing: TimeInterval = 15
  static let renewalsPerChain = 500
  static let unfinishedCount = 2
  static let batchSize = 10_000

  /// Which kinds the slots hold.
  enum Layout {
    /// Every four slots: two consumables, a non-consumable, a subscription period; a chain renews
    /// ``LedgerHistory/renewalsPerChain`` times.
    case longUsed
    /// Every ten slots: a non-consumable, four consumables, five subscription purchases, each a
    /// chain of its own that never renews: at 100 transactions, the present of a long-used
    /// ledger of 100,000 (50 chains, 10 non-consumables).
    case samePresent

    enum Kind { case consumable, nonConsumable, subscription }

    func kind(of slot: Int) -> Kind {
      switch self {
      case .longUsed: [Kind.consumable, .nonConsumable, .consumable, .subscription][slot % 4]
      case .samePresent: slot % 10 == 0 ? .nonConsumable : slot % 2 == 1 ? .subscription : .consumable
      }
    }

    var renewalsPerChain: Int { self == .longUsed ? LedgerHistory.renewalsPerChain : 0 }
  }

  struct Summary {
    var transactions = 0
    var consumables = 0
    var nonConsumablePurchases = 0
    var redownloads = 0
    var subscriptionPurchases = 0
    var renewals = 0
    var unfinished = 0
    var commits = 0
    /// Characters of all `signedTransaction` and `signedRenewalInfo` JWS.
    var signedTransactionBytes = 0
    var signedRenewalInfoBytes = 0
    var signedRenewalInfos = 0
    var seconds = 0.0
    /// The last transaction written (to check its JWS).
    var newest: PaymentTransaction?
  }

  private struct Chain {
    var product: Product
    var original: PaymentTransaction
    var record: [String: Any]
    var renewals = 0
  }

  /// Writes the history into `ledger` (expected empty) and returns what it wrote.
  static func write(
    count: Int, to ledger: SQLiteLedgerStore, catalog: Catalog, signing: BenchSigning, start: Date,
    layout: Layout = .longUsed
  ) throws -> Summary {
    let products = catalog.products
    let consumables = Array(products.filter { $0.kind == .consumable }.prefix(10))
    let nonConsumables = Array(products.filter { $0.kind == .nonConsumable }.prefix(10))
    var seenGroups: Set<String> = []
    let subscriptions = products.filter {
      guard $0.kind == .autoRenewableSubscription, let group = $0.subscription?.groupID else { return false }
      return seenGroups.insert(group).inserted
    }
    guard consumables.count == 10, nonConsumables.count == 10, !subscriptions.isEmpty else {
      throw BenchError.failed("the catalog needs 10 consumables, 10 non-consumables and an auto-renewable subscription")
    }

    var summary = Summary()
    let began = Stopwatch.nanoseconds()
    var firstPurchases: [Product.ID: PaymentTransaction] = [:]
    var chain: Chain?
    var chains = 0
    var lineItem: UInt64 = 0
    var nextID = BenchStore.liveFirstTransactionID
    var changes: [LedgerChange] = []
    changes.reserveCapacity(batchSize + 8)
    var records: [PaymentTransaction.ID: [String: Any]] = [:]
    var clock = start
    // Turns of the consumables and non-consumables (each kind's products in turn).
    var consumableTurn = 0
    var nonConsumableTurn = 0

    for slot in 0..<count {
      let date = start.addingTimeInterval(Double(slot) * spacing)
      clock = date
      let id = PaymentTransaction.ID(nextID)
      nextID += 1
      var transaction: PaymentTransaction
      switch layout.kind(of: slot) {
      case .consumable:
        let product = consumables[consumableTurn % consumables.count]
        consumableTurn += 1
        transaction = purchase(id, product, at: date)
        summary.consumables += 1
      case .nonConsumable:
        let product = nonConsumables[nonConsumableTurn % nonConsumables.count]
        nonConsumableTurn += 1
        transaction = purchase(id, product, at: date)
        if let first = firstPurchases[product.id] {
          transaction.originalID = first.originalID
          transaction.originalPurchaseDate = first.originalPurchaseDate
          transaction.price = 0
          summary.redownloads += 1
        } else {
          firstPurchases[product.id] = transaction
          summary.nonConsumablePurchases += 1
        }
      case .subscription:
        lineItem += 1
        if var current = chain, current.renewals < layout.renewalsPerChain {
          transaction = purchase(id, current.product, at: date)
          transaction.originalID = current.original.id
          transaction.originalPurchaseDate = current.original.originalPurchaseDate
          transaction.reason = .renewal
          current.renewals += 1
          current.record["renewalCount"] = current.renewals
          chain = current
          summary.renewals += 1
        } else {
          if var ended = chain {
            // Cancelled by the tester during the last period: it expires at its end.
            ended.record["autoRenew"] = false
            ended.record["status"] = SubscriptionStatus.expired.rawValue
            ended.record["expirationIntent"] = 1
            records[ended.original.id] = ended.record
          }
          let product = subscriptions[chains % subscriptions.count]
          chains += 1
          transaction = purchase(id, product, at: date)
          if chains <= subscriptions.count, let intro = product.subscription?.introductoryOffer {
            transaction.offerType = .introductory
            transaction.offerPaymentMode = intro.paymentMode
            transaction.price = intro.paymentMode == .freeTrial ? 0 : intro.price
          }
          chain = Chain(product: product, original: transaction, record: [
            "originalID": id.rawValue, "account": account, "groupID": product.subscription?.groupID ?? "",
            "productID": product.id.rawValue, "renewalProductID": product.id.rawValue, "autoRenew": true,
            "status": SubscriptionStatus.subscribed.rawValue, "renewalCount": 0, "priceIncreasePending": false,
            "webOrderLineItemID": 1_000_000_000 + lineItem,
          ])
          summary.subscriptionPurchases += 1
        }
        transaction.subscriptionGroupID = chain?.product.subscription?.groupID
        transaction.webOrderLineItemID = 1_000_000_000 + lineItem
        transaction.expiresDate = date.addingTimeInterval(4 * spacing)
        chain?.record["expiresDate"] = milliseconds(date.addingTimeInterval(4 * spacing))
        chain?.record["currentTransactionID"] = id.rawValue
        if let current = chain { records[current.original.id] = current.record }
      }
      transaction.isFinished = slot < count - unfinishedCount
      if !transaction.isFinished { summary.unfinished += 1 }
      try sign(&transaction, at: date, signing: signing, chain: chain, summary: &summary)
      changes.append(.putTransaction(transaction))
      summary.transactions += 1
      summary.newest = transaction

      if changes.count >= batchSize || slot == count - 1 {
        if slot == count - 1 {
          changes.append(.putAccount(SandboxAccount(name: account)))
          changes.append(.setCurrentAccount(account))
          changes.append(.setClock(clock.addingTimeInterval(spacing)))
          for (_, record) in records.sorted(by: { $0.key < $1.key }) {
            changes.append(.putSubscription(try subscriptionRecord(record)))
          }
        }
        try ledger.commit(changes)
        summary.commits += 1
        changes.removeAll(keepingCapacity: true)
      }
    }
    summary.seconds = Double(Stopwatch.nanoseconds() - began) / 1e9
    return summary
  }

  private static func purchase(_ id: PaymentTransaction.ID, _ product: Product, at date: Date) -> PaymentTransaction {
    PaymentTransaction(
      id: id, account: account, productID: product.id, productKind: product.kind, state: .purchased, purchaseDate: date,
      price: product.price)
  }

  /// Signs as the engine's commit does: the transaction, and for an auto-renewable its renewal info.
  private static func sign(
    _ transaction: inout PaymentTransaction, at date: Date, signing: BenchSigning, chain: Chain?, summary: inout Summary
  ) throws {
    transaction.signedTransaction = try signing.transaction(transaction, date)
    summary.signedTransactionBytes += transaction.signedTransaction?.utf8.count ?? 0
    guard transaction.productKind == .autoRenewableSubscription, let chain,
      let info = RenewalInfo(renewing: transaction, renewalPrice: chain.product.price, autoRenewProductID: chain.product.id)
    else { return }
    transaction.signedRenewalInfo = try signing.renewalInfo(info, date)
    summary.signedRenewalInfoBytes += transaction.signedRenewalInfo?.utf8.count ?? 0
    summary.signedRenewalInfos += 1
  }

  /// The `SubscriptionRecord` the fields describe (dates in ms).
  private static func subscriptionRecord(_ record: [String: Any]) throws -> SubscriptionRecord {
    let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    return try decoder.decode(SubscriptionRecord.self, from: data)
  }

  private static func milliseconds(_ date: Date) -> Int64 { SignedPayloads.milliseconds(date) }
}
