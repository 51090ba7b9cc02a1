import Foundation
import StoreEngine

/// The StoreKit 2 view of the engine's events: what an app written against StoreKit 2 would get
/// back from `purchase()` and read from `Transaction.updates`, `AppStore.sync()` and the other
/// sequences, from the same events the StoreKit 1 lines are made of.
///
/// StoreKit 2 returns a purchase the app made with `purchase()` to that call, never to
/// `Transaction.updates`; everything else that creates or changes a transaction (Ask to Buy
/// approvals, renewals, refunds, upgrades, resolved interrupted purchases, other devices or
/// processes, unfinished transactions at launch) goes to `updates`. So the view must know which
/// purchases the app started: the front end tells it with ``willPerform(_:)`` before each command.
///
/// ```swift
/// var view = StoreKit2View()
/// view.willPerform(command)
/// try queue.perform(command)
/// for event in events { lines += view.lines(for: event, at: queue.now, formatter: formatter) { _ in nil } }
/// ```
public struct StoreKit2View: Sendable, Equatable {
  /// Products of `purchase()` calls whose transaction has not appeared yet, oldest first.
  private var requested: [Product.ID] = []
  /// `purchase()` calls waiting for their result, by transaction.
  private var calls: [PaymentTransaction.ID: Product.ID] = [:]

  public init() {}

  /// Notes a command the app is about to issue: `buy` is a `purchase()` call; `relaunch` ends the
  /// process, so calls still waiting never return (their results go to `updates` instead).
  public mutating func willPerform(_ command: StoreCommand) {
    switch command {
    case .buy(let payment): requested.append(payment.productID)
    case .relaunch:
      requested = []
      calls = [:]
    default: break
    }
  }

  /// The StoreKit 2 lines of `event`, formatted like the StoreKit 1 lines.
  ///
  /// - Parameter lookup: finds a transaction by id; re-buying an owned non-consumable returns the
  ///   original transaction, as StoreKit 2 does.
  public mutating func lines(
    for event: StoreEvent, at time: Date, line: Int? = nil, formatter: EventFormatter,
    lookup: (PaymentTransaction.ID) -> PaymentTransaction?
  ) -> [String] {
    formatter.lines(for: records(for: event, lookup: lookup), at: time, line: line)
  }

  /// The records of `event` in the StoreKit 2 view. Events StoreKit 2 reports as StoreKit 1 does
  /// (sheets, accounts, a cleared history, misuse) and events added later keep their lines.
  mutating func records(
    for event: StoreEvent, lookup: (PaymentTransaction.ID) -> PaymentTransaction?
  ) -> [EventRecord] {
    let records: [StoreKit2Record]
    switch event {
    case .transactionsUpdated(let list): records = list.flatMap { updated($0, lookup: lookup) }
    case .transactionRevoked(let transaction): records = [.transactionUpdate(.init(transaction))]
    case .transactionsAmended(let list):
      // An upgraded period, a refund, or another process's new purchase; a row that only became
      // finished elsewhere is no update.
      records = list.filter { $0.state == .purchased && (!$0.isFinished || $0.isUpgraded || $0.revocationDate != nil) }
        .map { .transactionUpdate(.init($0)) }
    case .transactionsRemoved:
      // `Transaction.finish()` has no callback.
      records = []
    case .restoreFinished: records = [.appStoreSync(.init(error: nil))]
    case .restoreFailed(let error): records = [.appStoreSync(.init(error: .init(error)))]
    case .productsRequestFailed(_, let error): records = [.productsError(.init(productID: nil, error: .init(error)))]
    case .storefrontChanged(let code): records = [.storefrontUpdate(.init(storefront: code))]
    default:
      // Renamed where StoreKit 2 has an API of its own, with the StoreKit 1 line's fields as they are.
      return EventRecord.records(for: event).map(Self.renamed)
    }
    return records.map(EventRecord.storeKit2)
  }

  /// The StoreKit 2 name of a StoreKit 1 line that means the same thing, or the line as it is.
  private static func renamed(_ record: EventRecord) -> EventRecord {
    switch record {
    case .shouldAddStorePayment(let fields): .storeKit2(.purchaseIntent(fields))
    case .subscriptionStatusChanged(let fields): .storeKit2(.subscriptionStatusUpdate(fields))
    case .productsResponse(let fields): .storeKit2(.products(fields))
    default: record
    }
  }

  /// One transaction of a `transactionsUpdated` batch.
  private mutating func updated(
    _ transaction: PaymentTransaction, lookup: (PaymentTransaction.ID) -> PaymentTransaction?
  ) -> [StoreKit2Record] {
    guard let product = calls[transaction.id] ?? bind(transaction) else {
      // Not a purchase() call's: only purchased transactions exist in StoreKit 2.
      return transaction.state == .purchased ? [.transactionUpdate(.init(transaction))] : []
    }
    let productID = product.rawValue
    switch transaction.state {
    case .purchasing, .restored:
      return []
    case .purchased:
      calls[transaction.id] = nil
      var shown = transaction
      if transaction.productKind == .nonConsumable, transaction.originalID != transaction.id,
        let original = lookup(transaction.originalID)
      {
        // A re-download is no new transaction in StoreKit 2: purchase() returns the existing one.
        shown = original
      }
      return [.purchaseResult(.init(result: "success", productID: productID, transaction: .init(shown)))]
    case .deferred:
      calls[transaction.id] = nil
      return [.purchaseResult(.init(result: "pending", productID: productID))]
    case .failed:
      calls[transaction.id] = nil
      // An interrupted purchase is pending: its resolution arrives in updates (DECISIONS §14).
      if transaction.needsResolution { return [.purchaseResult(.init(result: "pending", productID: productID))] }
      // B24: buying the subscription the account already has (or changing plan) fails for StoreKit 1;
      // StoreKit 2's purchase() returns success with the existing transaction.
      if let existing = transaction.subscribedTransactionID, let current = lookup(existing) {
        return [.purchaseResult(.init(result: "success", productID: productID, transaction: .init(current)))]
      }
      let error = transaction.error ?? .unknown
      // The user's Cancel is a result; a simulated `userCancelled` error is thrown, as Xcode throws it.
      if error == .paymentCancelled { return [.purchaseResult(.init(result: "userCancelled", productID: productID))] }
      return [.purchaseError(.init(productID: productID, error: .init(error)))]
    }
  }

  /// Ties a transaction that has just appeared to the oldest `purchase()` call for its product. A
  /// payment's transaction first appears as `purchasing` (or `failed` when the store refuses it), so
  /// a purchased one (an approval, a resolution, a renewal) is never taken for a call's.
  private mutating func bind(_ transaction: PaymentTransaction) -> Product.ID? {
    guard transaction.reason == .purchase, transaction.state == .purchasing || transaction.state == .failed,
      let index = requested.firstIndex(of: transaction.productID)
    else { return nil }
    requested.remove(at: index)
    calls[transaction.id] = transaction.productID
    return transaction.productID
  }

  /// `verified`, or `unverified` when the JWS is missing or carries the signature the engine
  /// zeroes under `fail verification` (a real ES256 signature is never all zeros).
  static func verification(of jws: String?) -> String {
    // Split as bytes: every event of a run comes here, and a JWS with its x5c chain is kilobytes
    // (splitting it as Characters was a third of `storefront run`'s CPU per purchase).
    guard let parts = jws?.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false), parts.count == 3,
      let signature = parts.last
    else { return "unverified" }
    return signature.elementsEqual(zeroSignature) ? "unverified" : "verified"
  }

  /// 64 zero bytes, base64url: the engine's broken signature.
  private static let zeroSignature = Array(Data(repeating: 0, count: 64).base64URLEncoded.utf8)
}
