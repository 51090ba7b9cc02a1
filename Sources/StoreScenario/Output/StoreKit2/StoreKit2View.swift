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

  /// Takes back the newest `purchase()`-like call for `product` noted by ``willPerform(_:)`` whose
  /// command made no transaction (an offer code the store refused before any purchase).
  public mutating func forgetRequest(of product: Product.ID) {
    if let index = requested.lastIndex(of: product) { requested.remove(at: index) }
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

  /// Where StoreKit 2 puts one transaction of an event: back to the `purchase()` call that made it,
  /// or into `Transaction.updates`. The library (`import StoreKit`) and the scenario lines are made
  /// from the same routes, so the two front ends cannot disagree about the rule.
  public enum Route: Sendable, Equatable {
    /// `purchase()` returned or threw. `call` is the transaction the call was bound to (its first
    /// transaction, `purchasing` or `failed`); `product` the product the app asked for.
    case purchase(call: PaymentTransaction.ID, product: Product.ID, PurchaseRouting)
    /// `Transaction.updates` emits this transaction.
    case update(PaymentTransaction)
  }

  /// How a `purchase()` call ended.
  public enum PurchaseRouting: Sendable, Equatable {
    /// `.success` with this transaction (the original one for a re-downloaded non-consumable, the
    /// current period for an active subscription bought again).
    case success(PaymentTransaction)
    /// `.pending`: Ask to Buy, or an interrupted purchase (its resolution arrives in `updates`).
    case pending
    /// `.userCancelled`: the user's Cancel on the sheet.
    case userCancelled
    /// `purchase()` threw this error.
    case failed(StoreKitError)
  }

  /// The routes of `event`'s transactions, in order, or nil for an event that carries none
  /// StoreKit 2 knows of (sheets, accounts, restores, storefronts…).
  ///
  /// - Parameter lookup: finds a transaction by id; re-buying an owned non-consumable returns the
  ///   original transaction, as StoreKit 2 does.
  public mutating func routes(
    for event: StoreEvent, lookup: (PaymentTransaction.ID) -> PaymentTransaction?
  ) -> [Route]? {
    switch event {
    case .transactionsUpdated(let list): list.compactMap { route($0, lookup: lookup) }
    case .transactionRevoked(let transaction): [.update(transaction)]
    case .transactionsAmended(let list):
      // An upgraded period, a refund, or another process's new purchase; a row that only became
      // finished elsewhere is no update.
      list.filter { $0.state == .purchased && (!$0.isFinished || $0.isUpgraded || $0.revocationDate != nil) }
        .map { .update($0) }
    // `Transaction.finish()` has no callback.
    case .transactionsRemoved: []
    default: nil
    }
  }

  /// The records of `event` in the StoreKit 2 view. Events StoreKit 2 reports as StoreKit 1 does
  /// (sheets, accounts, a cleared history, misuse) and events added later keep their lines.
  mutating func records(
    for event: StoreEvent, lookup: (PaymentTransaction.ID) -> PaymentTransaction?
  ) -> [EventRecord] {
    let records: [StoreKit2Record]
    if let routes = routes(for: event, lookup: lookup) {
      records = routes.map(Self.record)
    } else {
      switch event {
      case .restoreFinished: records = [.appStoreSync(.init(error: nil))]
      case .restoreFailed(let error): records = [.appStoreSync(.init(error: .init(error)))]
      case .productsRequestFailed(_, let error): records = [.productsError(.init(productID: nil, error: .init(error)))]
      case .storefrontChanged(let code): records = [.storefrontUpdate(.init(storefront: code))]
      default:
        // Renamed where StoreKit 2 has an API of its own, with the StoreKit 1 line's fields as they are.
        return EventRecord.records(for: event).map(Self.renamed)
      }
    }
    return records.map(EventRecord.storeKit2)
  }

  /// The line of one route.
  private static func record(_ route: Route) -> StoreKit2Record {
    switch route {
    case .update(let transaction): return .transactionUpdate(.init(transaction))
    case .purchase(_, let product, let routing):
      let productID = product.rawValue
      switch routing {
      case .success(let transaction):
        return .purchaseResult(.init(result: "success", productID: productID, transaction: .init(transaction)))
      case .pending: return .purchaseResult(.init(result: "pending", productID: productID))
      case .userCancelled: return .purchaseResult(.init(result: "userCancelled", productID: productID))
      case .failed(let error): return .purchaseError(.init(productID: productID, error: .init(error)))
      }
    }
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

  /// Where one transaction of a `transactionsUpdated` batch goes, if anywhere.
  private mutating func route(
    _ transaction: PaymentTransaction, lookup: (PaymentTransaction.ID) -> PaymentTransaction?
  ) -> Route? {
    guard let product = calls[transaction.id] ?? bind(transaction) else {
      // Not a purchase() call's: only purchased transactions exist in StoreKit 2.
      return transaction.state == .purchased ? .update(transaction) : nil
    }
    let call = transaction.id
    switch transaction.state {
    case .purchasing, .restored:
      return nil
    case .purchased:
      calls[transaction.id] = nil
      var shown = transaction
      if transaction.productKind == .nonConsumable, transaction.originalID != transaction.id,
        let original = lookup(transaction.originalID)
      {
        // A re-download is no new transaction in StoreKit 2: purchase() returns the existing one.
        shown = original
      }
      return .purchase(call: call, product: product, .success(shown))
    case .deferred:
      calls[transaction.id] = nil
      return .purchase(call: call, product: product, .pending)
    case .failed:
      calls[transaction.id] = nil
      // An interrupted purchase is pending: its resolution arrives in updates (DECISIONS §14).
      if transaction.needsResolution { return .purchase(call: call, product: product, .pending) }
      // B24: buying the subscription the account already has (or changing plan) fails for StoreKit 1;
      // StoreKit 2's purchase() returns success with the existing transaction.
      if let existing = transaction.subscribedTransactionID, let current = lookup(existing) {
        return .purchase(call: call, product: product, .success(current))
      }
      let error = transaction.error ?? .unknown
      // The user's Cancel is a result; a simulated `userCancelled` error is thrown, as Xcode throws it.
      if error == .paymentCancelled { return .purchase(call: call, product: product, .userCancelled) }
      return .purchase(call: call, product: product, .failed(error))
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
