import Foundation

/// Everything a front end (the scenario runner, the TUI, a test) can ask of the store: the one
/// command vocabulary. ``PaymentQueue/perform(_:)`` runs each one as one step.
public enum StoreCommand: Sendable, Equatable {
  /// Sign a sandbox tester in, creating the account on first use (an empty password means none).
  case signIn(String, password: String?)
  case signOut
  /// An attached app takes the account its device (a storefront) just signed in with, whose
  /// password the storefront checked: no password is asked, and no account record is written.
  case adoptAccount(String)
  /// Family Sharing: these accounts (created when new) form one family, the first its organizer.
  /// An empty list, or one name, takes that account out of its family.
  case setFamily([String])
  /// `SKProductsRequest`.
  case requestProducts([String])
  /// `SKPaymentQueue.add(_:)`.
  case buy(Payment)
  /// A purchase started from the App Store page (a promoted in-app purchase); observers are asked
  /// `shouldAddStorePayment` first.
  case storePayment(Product.ID)
  /// `restoreCompletedTransactions(withApplicationUsername:)`: only the purchases made with that
  /// application username are restored.
  case restoreFor(applicationUsername: String)
  /// Xcode's transaction manager buys as if at `date` in the past (StoreKitTest's
  /// `purchaseDate(_:renewalBehavior:)`): an auto-renewable subscription then renews up to now, or,
  /// `cancelImmediately`, stops renewing at once and expires at the end of its first period.
  case buyInThePast(Payment, at: Date, cancelImmediately: Bool)
  /// B50: `presentCodeRedemptionSheet()`: the user types an offer code (its id or reference name)
  /// into the App Store's redemption sheet. The purchase it starts is the store's, not a
  /// `purchase()` call: it reaches the app on the observer and `Transaction.updates`.
  case redeemOfferCode(String)
  /// App Store Connect's offer codes: generate one-time-use codes or create a custom code (B87).
  case offerCodes(OfferCodeCommand)
  /// Tap Buy on the purchase sheet.
  case confirm
  /// Tap Cancel on the purchase or sign-in sheet.
  case cancel
  /// `SKPaymentQueueDelegate.paymentQueue(_:shouldContinue:in:)` answered false: the storefront
  /// changed while this payment was in progress, and StoreKit fails it with `storeProductNotAvailable`.
  case discontinueAfterStorefrontChange(PaymentTransaction.ID)
  /// `finishTransaction(_:)`.
  case finish(PaymentTransaction.ID)
  /// `finishTransaction(_:)` for each of these, in order, as one step: an app that finishes in its
  /// `updatedTransactions` handler finishes a callback's batch (a day of renewals) in one commit.
  case finishAll([PaymentTransaction.ID])
  /// `restoreCompletedTransactions()`.
  case restore
  /// Ask to Buy: the parent approves, now or after a delay of virtual time.
  case approve(PaymentTransaction.ID, after: TimeInterval?)
  /// Ask to Buy: the parent declines, now or after a delay of virtual time.
  case decline(PaymentTransaction.ID, after: TimeInterval?)
  /// Resolve an interrupted purchase: a new, successful transaction arrives.
  case resolve(PaymentTransaction.ID)
  /// Refund a transaction (`revocationReason`: 0 other, 1 app issue).
  case refund(PaymentTransaction.ID, reason: Int)
  /// The app's refund sheet (`Transaction.beginRefundRequest`), answered as `answer` says.
  case requestRefund(PaymentTransaction.ID, answer: RefundRequestAnswer, reason: Int)
  /// Change one sandbox control.
  case setControl(ControlChange)
  /// Move the virtual clock to this moment (never backwards).
  case advance(to: Date)
  /// Quit and relaunch the app: memory is re-read from the ledger, unfinished transactions come again.
  case relaunch
  /// Take in one commit another process (or host) made to the same ledger, as the commit log
  /// gives it (``LedgerStore/changes(since:)``): nothing is written, the working set follows it,
  /// and the step's events tell the app what changed (DECISIONS §41).
  case absorb([LedgerChange])
  /// Clear the purchase history of an account (default: the signed-in one).
  case clearHistory(account: String?)
  case setAutoRenew(PaymentTransaction.ID, Bool)
  /// Expire a subscription now (Xcode's "Expire").
  case expireSubscription(PaymentTransaction.ID)
  /// Renew a subscription now (Xcode's "Force Renewal").
  case renewSubscription(PaymentTransaction.ID)
  /// Resolve a subscription's billing issue: it renews now.
  case resolveBillingIssue(PaymentTransaction.ID)
  /// A price increase: requested (to `price`, default 20 % more), accepted or declined.
  case priceIncrease(PaymentTransaction.ID, PriceIncreaseAction, price: Decimal? = nil)
  /// `SKTestSession.deleteTransaction(identifier:)`: one transaction leaves the history.
  case deleteTransaction(PaymentTransaction.ID)
  /// `SKTestSession.resetToDefaultState()`: every account's history cleared, the controls back to
  /// the catalog's settings.
  case resetToDefaultState
  /// The App Store Server API's Extend a Subscription Renewal Date: the chain's current period ends
  /// `days` later. A `requestID` already applied to the chain changes nothing.
  case extendRenewalDate(PaymentTransaction.ID, days: Int, requestID: String)
  /// The App Store Server API's Send Consumption Information: stored on the transaction (its JWS
  /// unchanged), replacing an earlier report.
  case sendConsumptionInformation(PaymentTransaction.ID, ConsumptionInformation)
  /// The App Store Server API's Set App Account Token, for an original transaction id.
  case setAppAccountToken(PaymentTransaction.ID, token: String)
  /// The App Store Server API's Extend Subscription Renewal Dates for All Active Subscribers: every
  /// active chain of the product is extended and the outcome kept in the ledger.
  case extendRenewalDates(MassExtension)
  /// App Store Connect's notification URL of an environment (`Sandbox`, `Production`) for the app's
  /// server; nil removes it. Notifications are sent only for an environment with a URL.
  case setNotificationURL(environment: String, url: String?)
  /// The App Store Server API's Request a Test Notification: a TEST notification, named by `token`
  /// (its `testNotificationToken`).
  case requestTestNotification(token: String)
  /// Sell `catalog` from now on (an edited or reloaded `.storekit` file); settings it changed become
  /// the sandbox's.
  case sellCatalog(Catalog)
  /// A parent or guardian withdraws consent for `account`'s use of the app (age assurance): the
  /// app's server gets RESCIND_CONSENT with the customer's app transaction, first downloaded at
  /// `firstPurchase` (the ledger's earliest original purchase of the account; nil: now).
  case rescindConsent(account: String, firstPurchase: Date?)
  /// What the shell read from the ledger for the machine (``LedgerRead``): nothing is written.
  case read(LedgerRead)
  /// What this process says to the others attached to the store (``DeviceCommand``), as one step.
  case device([DeviceCommand])

  /// A price-increase step.
  public enum PriceIncreaseAction: String, Sendable, Equatable, CaseIterable {
    case request
    case accept
    case decline
  }

  /// The transaction the command names, if any: the shell brings it into memory before the step.
  public var transactionID: PaymentTransaction.ID? {
    switch self {
    case .finish(let id), .discontinueAfterStorefrontChange(let id), .approve(let id, _), .decline(let id, _), .resolve(let id), .refund(let id, _),
      .requestRefund(let id, _, _),
      .setAutoRenew(let id, _), .expireSubscription(let id), .renewSubscription(let id),
      .resolveBillingIssue(let id), .priceIncrease(let id, _, _), .deleteTransaction(let id),
      .extendRenewalDate(let id, _, _), .sendConsumptionInformation(let id, _), .setAppAccountToken(let id, _):
      id
    case .buy(let payment):
      // A signed request names a transaction of the customer's: the store looks it up.
      (payment.discount?.request?.transactionID ?? payment.introductoryOfferEligibility?.transactionID).flatMap(PaymentTransaction.ID.init)
    default: nil
    }
  }
}

/// One change to the sandbox controls.
public enum ControlChange: Sendable, Equatable {
  case askToBuy(Bool)
  case interruptedPurchases(Bool)
  case dialogs(Bool)
  case canMakePayments(Bool)
  case billingRetry(Bool)
  case gracePeriod(Bool)
  /// A simulated error for one API, or nil for none.
  case failure(StoreAPI, SimulatedFailure?)
  case storefront(String)
  case locale(String)
  /// Simulated latency of a products request, in seconds of virtual time.
  case productsLatency(TimeInterval)
  /// A ``TimeRate`` raw value.
  case timeRate(Int)
  /// `AppStore.ageRatingCode` from now on (nil: unavailable); an app compares it with the last one it saw.
  case ageRatingCode(Int?)

  /// Applies the change.
  public func apply(to controls: inout SandboxControls) {
    switch self {
    case .askToBuy(let on): controls.askToBuy = on
    case .interruptedPurchases(let on): controls.interruptedPurchases = on
    case .dialogs(let on): controls.dialogsEnabled = on
    case .canMakePayments(let on): controls.canMakePayments = on
    case .billingRetry(let on): controls.billingRetry = on
    case .gracePeriod(let on): controls.gracePeriod = on
    case .failure(let api, let failure): controls.failures[api] = failure
    case .storefront(let code): controls.storefront = code
    case .locale(let locale): controls.locale = locale
    case .productsLatency(let seconds): controls.productsLatency = seconds
    case .timeRate(let raw): controls.timeRate = raw
    case .ageRatingCode(let code): controls.ageRatingCode = code
    }
  }
}

extension StoreCommand {
  /// Whether the command restores purchases (it needs the account's whole history from the ledger).
  public var restores: Bool {
    switch self {
    case .restore, .restoreFor: true
    default: false
    }
  }
}

/// What ``PaymentQueue`` reads from the ledger and hands the machine (``StoreCommand/read(_:)``), so
/// that every change of the machine goes through ``StoreMachine/handle(_:)``: the machine does no I/O.
public enum LedgerRead: Sendable, Equatable {
  /// The ledger's present, after the commit log was trimmed behind this process: taken in as a
  /// launch reads it, keeping the sheet, the timers and the requests in flight.
  case present(LedgerSnapshot)
  /// The ledger's present for a relaunch: everything durable replaced, the process's state gone.
  case relaunch(LedgerSnapshot)
  /// Rows a command needs that the working set does not hold (a restore's history, a named transaction).
  case rows([PaymentTransaction])
  /// Transaction ids the ledger reserved for this process.
  case reservedIDs(Range<UInt64>)
}
