import Foundation

/// StoreKit-shaped spellings of ``PaymentQueue/perform(_:)``, for apps' code paths and tests.
extension PaymentQueue {
  /// `SKPaymentQueue.add(_:)`. Returns the new transaction's id.
  @discardableResult
  public func add(_ payment: Payment) throws(EngineError) -> PaymentTransaction.ID {
    guard let id = try perform(.buy(payment)).createdTransaction else { throw .unknownTransaction(payment.productID.rawValue) }
    return id
  }

  public func signIn(_ name: String, password: String? = nil) throws(EngineError) { try perform(.signIn(name, password: password)) }
  public func signOut() throws(EngineError) { try perform(.signOut) }
  public func confirm() throws(EngineError) { try perform(.confirm) }
  public func cancel() throws(EngineError) { try perform(.cancel) }
  public func finish(_ id: PaymentTransaction.ID) throws(EngineError) { try perform(.finish(id)) }
  public func restoreCompletedTransactions() throws(EngineError) { try perform(.restore) }
  public func approve(_ id: PaymentTransaction.ID) throws(EngineError) { try perform(.approve(id, after: nil)) }
  public func decline(_ id: PaymentTransaction.ID) throws(EngineError) { try perform(.decline(id, after: nil)) }
  public func refund(_ id: PaymentTransaction.ID, reason: Int = 0) throws(EngineError) { try perform(.refund(id, reason: reason)) }
  public func relaunch() throws(EngineError) { try perform(.relaunch) }
  public func set(_ change: ControlChange) throws(EngineError) { try perform(.setControl(change)) }
  public func clearPurchaseHistory(account: String? = nil) throws(EngineError) { try perform(.clearHistory(account: account)) }
  public func setAutoRenew(_ on: Bool, for id: PaymentTransaction.ID) throws(EngineError) { try perform(.setAutoRenew(id, on)) }
  public func expireSubscription(_ id: PaymentTransaction.ID) throws(EngineError) { try perform(.expireSubscription(id)) }
  public func forceRenewal(_ id: PaymentTransaction.ID) throws(EngineError) { try perform(.renewSubscription(id)) }
  public func resolveBillingIssue(_ id: PaymentTransaction.ID) throws(EngineError) { try perform(.resolveBillingIssue(id)) }
  public func requestPriceIncrease(_ id: PaymentTransaction.ID, to price: Decimal? = nil) throws(EngineError) {
    try perform(.priceIncrease(id, .request, price: price))
  }
  public func answerPriceIncrease(_ id: PaymentTransaction.ID, consent: Bool) throws(EngineError) {
    try perform(.priceIncrease(id, consent ? .accept : .decline))
  }

  /// Schedules an Ask to Buy answer after a delay of virtual time (like Google's slow test cards).
  public func schedule(approve: Bool, _ id: PaymentTransaction.ID, after delay: TimeInterval) throws(EngineError) {
    try perform(approve ? .approve(id, after: delay) : .decline(id, after: delay))
  }

  /// Resolves an interrupted purchase; returns the new, purchased transaction's id.
  @discardableResult
  public func resolve(_ id: PaymentTransaction.ID) throws(EngineError) -> PaymentTransaction.ID {
    guard let created = try perform(.resolve(id)).createdTransaction else { throw .notInterrupted(id) }
    return created
  }

  /// A purchase started from the App Store page: observers are asked `shouldAddStorePayment`.
  /// - Returns: the new transaction's id, or nil when an observer answered no.
  @discardableResult
  public func startStorePayment(_ product: Product.ID) throws(EngineError) -> PaymentTransaction.ID? {
    try perform(.storePayment(product)).createdTransaction
  }

  /// Moves the virtual clock forward by `interval`, running everything that falls due, in order.
  public func advance(by interval: TimeInterval) throws(EngineError) {
    try perform(.advance(to: now.addingTimeInterval(max(0, interval))))
  }

  public func advance(to target: Date) throws(EngineError) { try perform(.advance(to: target)) }
}

extension PaymentQueue {
  /// A parent or guardian withdraws consent for `account`'s (default: the signed-in one) use of the
  /// app: RESCIND_CONSENT with the customer's app transaction, first downloaded at the earliest
  /// original purchase the ledger holds for the account.
  public func rescindConsent(account: String? = nil) throws(EngineError) {
    guard let name = account ?? currentAccount else { throw .notSignedIn }
    let firstPurchase: Date?
    do { firstPurchase = try ledger.earliestOriginalPurchase(account: name) } catch { throw .ledger(error) }
    try perform(.rescindConsent(account: name, firstPurchase: firstPurchase))
  }
}
