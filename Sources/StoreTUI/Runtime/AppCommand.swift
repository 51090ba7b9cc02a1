import Foundation
import StoreEngine

/// Work the reducer asks the runtime to do against the engine. Plain data, so tests compare it.
public enum AppCommand: Equatable, Sendable {
  /// `SKPaymentQueue.add` a payment of one unit.
  case buy(Product.ID)
  /// `restoreCompletedTransactions()`.
  case restore
  /// Tap Buy on the purchase sheet.
  case confirm
  /// Tap Cancel on the engine's purchase or sign-in sheet.
  case cancel
  /// Sign a sandbox tester in (an empty password means none).
  case signIn(name: String, password: String)
  case signOut
  case finish(PaymentTransaction.ID)
  /// Ask to Buy: the parent approves.
  case approve(PaymentTransaction.ID)
  /// Ask to Buy: the parent declines.
  case decline(PaymentTransaction.ID)
  /// Resolve an interrupted purchase.
  case resolve(PaymentTransaction.ID)
  /// Resolve a subscription's billing issue.
  case resolveBillingIssue(PaymentTransaction.ID)
  case refund(PaymentTransaction.ID)
  case setAutoRenew(PaymentTransaction.ID, Bool)
  /// Expire a subscription now.
  case expireSubscription(PaymentTransaction.ID)
  /// Force a subscription renewal now.
  case renewNow(PaymentTransaction.ID)
  /// Quit and relaunch the app: unfinished transactions are delivered again.
  case relaunch
  case setControl(ControlChange)
  /// Move the virtual clock forward by this many seconds.
  case advance(TimeInterval)
  /// Clear the signed-in account's purchase history.
  case clearHistory
  /// Write a transaction's JWS to `path` (relative paths resolve in the runtime's export folder).
  case exportJWS(PaymentTransaction.ID, path: String)
  /// End the session.
  case quit
}

/// One change to the sandbox controls.
public enum ControlChange: Equatable, Sendable {
  case askToBuy(Bool)
  case interruptedPurchases(Bool)
  case dialogs(Bool)
  case canMakePayments(Bool)
  case billingRetry(Bool)
  case gracePeriod(Bool)
  /// A simulated error for one API, or `nil` for none.
  case failure(StoreAPI, StoreKitError?)
  case storefront(String)
  case locale(String)
  /// A `TimeRate` raw value.
  case timeRate(Int)

  /// Applies the change.
  public func apply(to controls: inout SandboxControls) {
    switch self {
    case .askToBuy(let on): controls.askToBuy = on
    case .interruptedPurchases(let on): controls.interruptedPurchases = on
    case .dialogs(let on): controls.dialogsEnabled = on
    case .canMakePayments(let on): controls.canMakePayments = on
    case .billingRetry(let on): controls.billingRetry = on
    case .gracePeriod(let on): controls.gracePeriod = on
    case .failure(let api, let error): controls.failures[api] = error.map { SimulatedFailure(error: $0) }
    case .storefront(let code): controls.storefront = code
    case .locale(let locale): controls.locale = locale
    case .timeRate(let raw): controls.timeRate = raw
    }
  }
}

/// What happened, for the reducer: input, time, engine events and the results of commands.
public enum AppAction: Equatable, Sendable {
  case key(Key)
  case resized(Size)
  /// A real-time tick (spinner, notice expiry).
  case tick(Date)
  /// An engine event from the bus, in delivery order.
  case engine(StoreEvent)
  /// The account's whole view was (re)read: at start, after sign-in or sign-out, relaunch and
  /// clearing history. Rebuilds every status.
  case accountLoaded(AccountSnapshot)
  /// The account's subscription chains, read from the engine (events do not carry them).
  case subscriptionsRefreshed([SubscriptionRecord])
  /// A command ran; `message` is a note for the status line.
  case commandSucceeded(AppCommand, message: String?)
  /// A command failed with a message that says what to do.
  case commandFailed(AppCommand, message: String)
}

/// What the app knows about the signed-in account, read from the engine in one go.
public struct AccountSnapshot: Equatable, Sendable {
  public var account: String?
  /// Known sandbox accounts, sorted.
  public var knownAccounts: [String]
  /// The account's transactions, oldest first (queue and history).
  public var transactions: [PaymentTransaction]
  public var subscriptions: [SubscriptionRecord]
  public var controls: SandboxControls
  public var clock: Date

  public init(
    account: String?, knownAccounts: [String] = [], transactions: [PaymentTransaction] = [],
    subscriptions: [SubscriptionRecord] = [], controls: SandboxControls = SandboxControls(), clock: Date
  ) {
    self.account = account
    self.knownAccounts = knownAccounts
    self.transactions = transactions
    self.subscriptions = subscriptions
    self.controls = controls
    self.clock = clock
  }

  /// Reads the snapshot from a payment queue.
  public init(queue: PaymentQueue) {
    self.init(
      account: queue.currentAccount, knownAccounts: queue.accountNames, transactions: queue.history(),
      subscriptions: queue.subscriptions(), controls: queue.controls, clock: queue.now)
  }
}
