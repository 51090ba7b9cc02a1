import Foundation
import StoreKit
internal import StoreEngine
internal import StoreScenario

/// The transaction manager's actions and the beyond-Apple controls of the virtual clock and sheets.
extension SKTestSession {
  /// Every transaction of the account, oldest first, in every state (failed, deferred, consumables).
  public func allTransactions() -> [SKTestTransaction] {
    do {
      return try environment.read { store in
        let records = Dictionary(store.queue.subscriptions().map { ($0.originalID, $0) }, uniquingKeysWith: { $1 })
        return try store.queue.history().map { SKTestTransaction($0, record: records[$0.originalID]) }
      }
    } catch {
      environment.report("reading the test environment's transactions failed: \(error)")
      return []
    }
  }

  /// Deletes every transaction of the account (an empty receipt); unfinished ones leave the queue.
  public func clearTransactions() {
    do { try perform(.clearHistory(account: nil)) } catch { environment.report("clearing the transactions failed: \(error)") }
  }

  /// Every transaction deleted and every switch back to the `.storekit` file's settings.
  public func resetToDefaultState() {
    do { try perform(.resetToDefaultState) } catch { environment.report("resetting the test environment failed: \(error)") }
  }

  /// Deletes one transaction (and what it entitled).
  public func deleteTransaction(identifier: UInt) throws { try perform(.deleteTransaction(id(identifier))) }

  /// A purchase made outside the app (the transaction manager's Buy): it arrives on the payment
  /// queue's observers and in `Transaction.updates`, never as a `purchase()` result.
  @available(*, deprecated, message: "Use the Swift API: SKTestSession.buyProduct(identifier:, options:)")
  public func buyProduct(productIdentifier: String) throws {
    _ = try buy(StoreEngine.Payment(productID: .init(productIdentifier)), at: nil)
  }

  /// As ``buyProduct(productIdentifier:)``, with StoreKit 2's options; returns the transaction.
  /// As ``buyProduct(productIdentifier:)``, with the options `purchase(options:)` applies to the
  /// payment (a quantity, an account token, a signed or win-back offer) and the transaction manager's
  /// own (a promotional offer by id with no signature, an offer code by reference name, a past purchase
  /// date); returns the transaction. Ask to Buy and a storefront-change handler are an app's, not the
  /// transaction manager's, and are ignored here.
  ///
  /// - Throws: ``SKTestError`` `.invalidProductIdentifier` for a product or offer the configuration
  ///   lacks, `.invalidAction` when the store refuses the purchase.
  @discardableResult
  public func buyProduct(identifier: StoreKit.Product.ID, options: Set<StoreKit.Product.PurchaseOption> = []) async throws -> StoreKit.Transaction {
    var payment = StoreEngine.Payment(productID: .init(identifier))
    var past: (date: Date, cancel: Bool)?
    for option in options where try !option.apply(to: &payment) {
      switch option.value {
      case .testPromotionalOffer(let offer):
        payment.offerID = offer
        payment.offerSignatureWaived = true
      case .testCodeOffer(let name): payment.offerID = try codeOffer(named: name, of: identifier)
      case .testPurchaseDate(let date, let behavior): past = (date, behavior.rawValue == "cancelImmediately")
      default: break
      }
    }
    let made = try buy(payment, at: past)
    let result = try environment.read { store -> Result<StoreKit.Transaction, SKTestError>? in
      guard let transaction = try store.queue.transaction(made) else { return nil }
      if transaction.state == .failed {
        let reason = transaction.error.map { "\($0)" } ?? "unknown"
        return .failure(SKTestError(.invalidAction, message: "the store refused the purchase of \(identifier): \(reason)"))
      }
      return .success(environment.verification(of: transaction, in: store).unsafePayloadValue)
    }
    guard let result else { throw SKTestError(.noTransactionFound, message: "the purchase of \(identifier) made no transaction") }
    return try result.get()
  }

  /// The id of `product`'s offer code whose reference name is `name`.
  private func codeOffer(named name: String, of product: String) throws -> String {
    let offers = (try? environment.read { $0.queue.catalog.product(.init(product))?.subscription?.codeOffers }) ?? nil
    guard let offer = offers?.first(where: { $0.referenceName == name || $0.id == name }) else {
      let known = (offers ?? []).map(\.referenceName).joined(separator: ", ")
      throw SKTestError(
        .invalidProductIdentifier,
        message: "\(product) has no offer code named '\(name)' in the StoreKit configuration" + (known.isEmpty ? "" : " (it has: \(known))"))
    }
    return offer.id
  }

  private func buy(_ payment: StoreEngine.Payment, at past: (date: Date, cancel: Bool)?) throws -> StoreEngine.PaymentTransaction.ID {
    guard (try? environment.read({ $0.queue.catalog.product(payment.productID) })) != nil else {
      throw SKTestError(.invalidProductIdentifier, message: "the StoreKit configuration has no product \(payment.productID)")
    }
    // The transaction manager's purchase shows no sheet in the app.
    var created: StoreEngine.PaymentTransaction.ID?
    var failure: (any Error)?
    environment.locked {
      let dialogs = (try? environment.read { $0.queue.controls.dialogsEnabled }) ?? false
      do {
        if dialogs { try perform(.setControl(.dialogs(false))) }
        defer { if dialogs { _ = try? perform(.setControl(.dialogs(true))) } }
        let command: StoreCommand = past.map { .buyInThePast(payment, at: $0.date, cancelImmediately: $0.cancel) } ?? .buy(payment)
        created = try environment.perform(command).createdTransaction
      } catch let error as StorePerformError {
        failure = Self.testError(for: error)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    guard let created else { throw SKTestError(.invalidAction, message: "the purchase of \(payment.productID) made no transaction") }
    return created
  }

  public func approveAskToBuyTransaction(identifier: UInt) throws { try perform(.approve(id(identifier), after: nil)) }
  /// The parent declines: the app hears nothing (the transaction stays deferred; DECISIONS §5).
  public func declineAskToBuyTransaction(identifier: UInt) throws { try perform(.decline(id(identifier), after: nil)) }

  /// Resolves an interrupted purchase (a new, purchased transaction arrives) or a subscription's
  /// billing issue (it renews now).
  public func resolveIssueForTransaction(identifier: UInt) throws {
    let transaction = try environment.read { try $0.queue.transaction(id(identifier)) }
    guard let transaction else { throw SKTestError(.noTransactionFound, message: "no transaction \(identifier) in the test environment") }
    try perform(transaction.needsResolution ? .resolve(transaction.id) : .resolveBillingIssue(transaction.id))
  }

  /// Refunds a transaction (always granted): the app hears it on `Transaction.updates`.
  public func refundTransaction(identifier: UInt) throws { try perform(.refund(id(identifier), reason: 0)) }

  /// Expires the product's subscription now (auto-renew off).
  public func expireSubscription(productIdentifier: String) throws {
    try perform(.expireSubscription(try currentSubscription(productIdentifier)))
  }

  /// Ends the product's current period now and renews it (auto-renew back on).
  public func forceRenewalOfSubscription(productIdentifier: String) throws {
    try perform(.renewSubscription(try currentSubscription(productIdentifier)))
  }

  public func enableAutoRenewForTransaction(identifier: UInt) throws { try perform(.setAutoRenew(id(identifier), true)) }
  public func disableAutoRenewForTransaction(identifier: UInt) throws { try perform(.setAutoRenew(id(identifier), false)) }

  public func requestPriceIncreaseConsentForTransaction(identifier: UInt) throws {
    try perform(.priceIncrease(id(identifier), .request))
  }
  public func consentToPriceIncreaseForTransaction(identifier: UInt) throws { try perform(.priceIncrease(id(identifier), .accept)) }
  public func declinePriceIncreaseForTransaction(identifier: UInt) throws { try perform(.priceIncrease(id(identifier), .decline)) }

  // MARK: Beyond Apple

  /// The `Transaction.updates` elements `action` causes, in order, returned when it returns: a
  /// bounded replacement for `await updates.next()` in a test, which hangs when no update comes.
  public func transactionUpdates(during action: () async throws -> Void) async rethrows -> [VerificationResult<Transaction>] {
    try await environment.updates(during: action)
  }

  /// The virtual clock of the test environment: where every transaction date comes from.
  public var date: Date { (try? environment.read { $0.queue.now }) ?? Date() }

  /// Moves the virtual clock forward; everything due in between happens, in order (renewals,
  /// expiries, scheduled answers, delayed products responses), before this returns.
  /// The first call hands the clock to the test for the rest of the session: it no longer follows the
  /// wall clock under an accelerated ``timeRate``.
  public func advance(by interval: TimeInterval) throws {
    clock.handOver()
    try perform(.advance(to: date.addingTimeInterval(max(0, interval))))
  }

  /// Answers the open purchase sheet with Buy (with ``disableDialogs`` off, a purchase waits for it).
  public func confirmPurchaseSheet() throws { try perform(.confirm) }

  /// Answers the open purchase sheet with Cancel: the purchase fails with `paymentCancelled`
  /// (StoreKit 2: `.userCancelled`).
  public func cancelPurchaseSheet() throws { try perform(.cancel) }

  /// The user buys `productIdentifier` on the App Store's page (a promoted in-app purchase, a win-back
  /// offer there, or Xcode's `itms-services://?action=purchaseIntent` link), with the promotional or
  /// win-back offer `offerID` if given: every `PurchaseIntent.intents` sequence gets the intent (the app
  /// buys it with `purchase()`), and StoreKit 1 observers are asked
  /// `paymentQueue(_:shouldAddStorePayment:for:)` on the main queue — when every one says yes the
  /// payment is added and goes as any payment does. (StoreKit 1 has no offer in that question: with an
  /// offer only StoreKit 2 hears it.)
  ///
  /// - Throws: ``SKTestError/Code/invalidProductIdentifier`` when the configuration has no such product
  ///   or the product no such offer.
  public func startPurchaseFromAppStore(productIdentifier: String, offerID: String? = nil) throws {
    do {
      try environment.startPurchaseIntent(productID: productIdentifier, offerID: offerID)
      if offerID == nil { try environment.startStorePayment(productIdentifier: productIdentifier) }
    } catch {
      let offer = offerID.map { " with an offer \($0)" } ?? ""
      throw SKTestError(.invalidProductIdentifier, message: "the StoreKit configuration has no product \(productIdentifier)\(offer)")
    }
  }

  /// Types `code` (an offer code's id or reference name) into the App Store's redemption sheet.
  public func redeemOfferCode(_ code: String) throws { try perform(.redeemOfferCode(code)) }

  /// Enters `code` (or a redemption URL) for the next offer-code sheet the app presents with
  /// `AppStore.presentOfferCodeRedeemSheet(options:)`, which then returns the transaction the code
  /// makes (Storefront's own: under a test session nobody types into the sheet; DECISIONS §45).
  /// Codes entered are typed in order, one a sheet; a sheet with none entered is closed at once.
  public func enterOfferCode(_ code: String) { environment.locked { environment.enteredOfferCodes.append(code) } }

  /// The StoreKit misuses reported since the session opened (finishing a purchasing transaction…),
  /// each with the file and line of the call.
  public var reportedIssues: [String] { environment.reportedIssues }

  /// The DER root certificate the session's JWS verify against (for Apple's `SignedDataVerifier`).
  public func rootCertificate() throws -> Data {
    try environment.read { try $0.rootCertificate() }
  }

  private func id(_ identifier: UInt) -> StoreEngine.PaymentTransaction.ID { .init(UInt64(identifier)) }

  /// The current period's transaction of the product's subscription.
  private func currentSubscription(_ productIdentifier: String) throws -> StoreEngine.PaymentTransaction.ID {
    let found = try environment.read { store in
      StoreKit2Queries.latest(for: .init(productIdentifier), history: try store.queue.history())
    }
    guard let found, found.productKind == .autoRenewableSubscription else {
      throw SKTestError(.noSubscriptionFound, message: "the account has no subscription to \(productIdentifier)")
    }
    return found.id
  }
}
