import Foundation
import SimulatedApp
import StoreEngine

/// Work the reducer asks the runtime to do. Plain data, so tests compare it. Everything but
/// ``exportJWS(_:path:)`` and ``quit`` is a ``StoreCommand`` (``storeCommand``): the TUI has no
/// engine vocabulary of its own.
public enum AppCommand: Equatable, Sendable {
  /// `SKPaymentQueue.add` a payment of one unit.
  case buy(Product.ID)
  /// A purchase started on the App Store's page: the app's observer is asked whether to add it.
  case storePayment(Product.ID)
  /// B50: an offer code redeemed in the App Store's sheet.
  case redeemOfferCode(String)
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
  /// The simulated app finishes a callback's transactions together (one step).
  case finishAll([PaymentTransaction.ID])
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
  /// A parent withdraws consent for the signed-in account's use of the app.
  case rescindConsent
  /// The code typed into an attached app's offer-code sheet (nil: cancelled), for the app to redeem.
  case answerCodeSheet(session: String, code: String?)
  /// Write a transaction's JWS to `path` (relative paths resolve in the runtime's export folder).
  case exportJWS(PaymentTransaction.ID, path: String)
  /// End the session.
  case quit
  /// Make outbox entry `sequence` due again now: the serving process delivers it once more.
  case redeliver(Int64)
  /// The app's server's notification URL for the store's environment; nil removes it.
  case setNotificationURL(String?)
  /// The fault every App Store Server API endpoint answers with.
  case setServerFault(ServerFaultSetting)
  /// The simulated app asks its own server about a purchase (on a worker; the answer comes back as
  /// ``AppAction/appServerAnswered(_:)``).
  case callAppServer(AppServerRequest)
  /// Build the signed-in account's app receipt and show it decoded.
  case showReceipt
  /// Write the signed-in account's app receipt (DER) to `path` (relative to the export folder).
  case exportReceipt(path: String)
  /// Answers an attached app's purchase sheet (the app carries the answer out).
  case answerSheet(PaymentTransaction.ID, SheetAnswer)
  /// Write the Catalog pane's edited file (atomically, with a `.bak`) and sell what it says.
  case saveCatalog(bytes: [UInt8], summary: String)
  /// Read the catalog file again (it changed on disk).
  case reloadCatalog
  /// Signs the device in for an attached app's signed-out purchase; the app takes the account.
  case signInForAttachedApp(PaymentTransaction.ID, name: String, password: String)

  /// The store command this asks for; nil for the TUI's own work (export, quit).
  public func storeCommand(now: Date) -> StoreCommand? {
    switch self {
    case .buy(let product): .buy(Payment(productID: product))
    case .storePayment(let product): .storePayment(product)
    case .redeemOfferCode(let code): .redeemOfferCode(code)
    case .restore: .restore
    case .confirm: .confirm
    case .cancel: .cancel
    case .signIn(let name, let password): .signIn(name, password: password.isEmpty ? nil : password)
    case .signOut: .signOut
    case .finish(let id): .finish(id)
    case .finishAll(let ids): .finishAll(ids)
    case .approve(let id): .approve(id, after: nil)
    case .decline(let id): .decline(id, after: nil)
    case .resolve(let id): .resolve(id)
    case .resolveBillingIssue(let id): .resolveBillingIssue(id)
    case .refund(let id): .refund(id, reason: 0)
    case .setAutoRenew(let id, let on): .setAutoRenew(id, on)
    case .expireSubscription(let id): .expireSubscription(id)
    case .renewNow(let id): .renewSubscription(id)
    case .relaunch: .relaunch
    case .setControl(let change): .setControl(change)
    case .advance(let seconds): .advance(to: now.addingTimeInterval(max(0, seconds)))
    case .clearHistory: .clearHistory(account: nil)
    case .exportJWS, .quit, .redeliver, .rescindConsent, .answerCodeSheet, .setNotificationURL, .setServerFault, .callAppServer, .showReceipt, .exportReceipt, .answerSheet, .signInForAttachedApp, .saveCatalog, .reloadCatalog: nil
    }
  }
}

/// What happened, for the reducer: input, time, engine events and the results of commands.
public enum AppAction: Equatable, Sendable {
  case key(Key)
  /// The Catalog pane's document at launch (its file, or the built-in catalog).
  case catalogOpened(CatalogEditor)
  /// The catalog file as read or saved (the Catalog pane's document and the Store pane's products).
  case catalogLoaded(bytes: [UInt8], catalog: Catalog)
  /// Whether the catalog file on disk differs from what the storefront last read or wrote.
  case catalogChangedOnDisk(Bool)
  case resized(Size)
  /// A real-time tick (spinner, notice expiry).
  case tick(Date)
  /// The in-process App Store Server API (`--serve`) is listening at this URL: the Server pane appears.
  case serverListening(url: String)
  /// The in-process server answered a request.
  case serverRequest(ServerRequest)
  /// The shared ledger's connection was lost, is being got back, or is back (the header shows it).
  case ledgerConnectionChanged(LedgerConnectionState)
  /// Outbox entries read from the ledger: new notifications, and known ones whose delivery moved on.
  case notificationsRead([OutboxEntry])
  /// The notification URL of the store's environment, as read (another process may set it).
  case notificationURLRead(String?)
  /// The data directory's server fault, as read or written.
  case serverFaultRead(ServerFaultSetting?)
  /// The app receipt, decoded for reading (title and lines).
  case receiptRead(title: String, lines: [String])
  /// Changes now durable in the ledger, from this process or another: the read model applies them.
  case committed(LedgerCommit)
  /// The ledger's consumable counters, read after a commit that touched a consumable.
  case consumablesCounted([Product.ID: Int])
  /// A window of the account's history, read for the Transactions pane's scroll position.
  case historyRead(HistoryWindow)
  /// An engine event from the bus, in delivery order (after the commit it follows).
  case engine(StoreEvent)
  /// When the simulated app finishes transactions (`--app-finishes`, the Settings pane).
  case appFinishModeSet(AppFinishMode)
  /// The app's server answered a ``AppCommand/callAppServer(_:)`` (or the call failed).
  case appServerAnswered(AppServerAnswer)
  /// The account's whole view was read: at start, when another account signs in, and after a
  /// relaunch (which re-reads the ledger by definition). Rebuilds every status.
  case accountLoaded(AccountSnapshot)
  /// A command ran; `message` is a note for the status line.
  case commandSucceeded(AppCommand, message: String?)
  /// A command failed with a message that says what to do.
  case commandFailed(AppCommand, message: String)
  /// The apps attached to this store, as last read (the header names them).
  case attachedAppsRead([AttachedProcess])
  /// An attached app's purchase sheet waits for an answer: shown when no other sheet is up.
  case attachedSheetPresented(PurchaseSheet)
  /// An attached app opened the offer-code sheet (`presentCodeRedemptionSheet()`).
  case attachedCodeSheetPresented(session: String, app: String)
  /// The attached app's offer-code sheet on screen closed without this storefront (its app quit).
  case attachedCodeSheetWithdrawn
  /// The store's offer codes, a line each, for the offer-code sheet on screen (B87).
  case offerCodesRead([String])
  /// Callback lines attached apps heard, each marked with the app's bundle id, for the Log pane.
  case attachedAppLogged([String])
  /// An attached app's signed-out purchase asks the device to sign in: shown when no other sheet is up.
  case attachedSignInPresented(SignInSheet)
  /// An attached app's sheet no longer waits (answered elsewhere, cancelled, the app gone).
  case attachedSheetWithdrawn(PaymentTransaction.ID)
  /// An attached app's purchase went to Ask to Buy: the Ask Permission sheet, as for the simulated app.
  case attachedAskToBuy(productName: String)
}

/// What the app knows about the signed-in account, read from the engine in one go: its present
/// (the working set's rows, records and consumable counters). The history is read when the
/// Transactions pane shows it.
public struct AccountSnapshot: Equatable, Sendable {
  public var account: String?
  /// Known sandbox accounts, sorted.
  public var knownAccounts: [String]
  /// The account's present transactions, oldest first (``AppState/isPresent(_:record:)`` keeps
  /// what a screen shows of them; more is harmless).
  public var transactions: [PaymentTransaction]
  public var subscriptions: [SubscriptionRecord]
  /// Consumable units bought (purchased, not refunded), by product.
  public var consumableUnits: [Product.ID: Int]
  /// The Transactions pane's window (stale: to be read when the pane shows).
  public var history: HistoryWindow
  public var controls: SandboxControls
  public var clock: Date

  /// - Parameters:
  ///   - consumableUnits: nil counts the consumables of `transactions` (a test's whole history).
  ///   - history: nil shows `transactions` as the whole history (a test's).
  public init(
    account: String?, knownAccounts: [String] = [], transactions: [PaymentTransaction] = [],
    subscriptions: [SubscriptionRecord] = [], consumableUnits: [Product.ID: Int]? = nil, history: HistoryWindow? = nil,
    controls: SandboxControls = SandboxControls(), clock: Date
  ) {
    self.account = account
    self.knownAccounts = knownAccounts
    self.transactions = transactions
    self.subscriptions = subscriptions
    self.consumableUnits = consumableUnits ?? InMemoryLedgerStore.consumableUnits(in: transactions)
    let first = HistoryWindow.range(around: 0)
    self.history = history ?? HistoryWindow(
      offset: 0, limit: first.count, rows: Array(transactions.prefix(first.count)), total: transactions.count)
    self.controls = controls
    self.clock = clock
  }

  /// Reads the snapshot from a payment queue: its present and the ledger's consumable counters,
  /// whatever the history's length; the Transactions pane's window is left to be read.
  public init(queue: PaymentQueue) throws(LedgerError) {
    let account = queue.currentAccount
    // Signed out, the rows are the account-less purchases' (a sign-in sheet's), as the read model
    // scopes them (``LedgerImage/show(account:)``).
    let scope = account ?? ""
    self.init(
      account: account, knownAccounts: queue.accountNames, transactions: queue.presentTransactions(account: scope),
      subscriptions: queue.subscriptions(account: scope),
      consumableUnits: try account.map { name throws(LedgerError) in try queue.ledger.consumableUnits(account: name) } ?? [:],
      history: HistoryWindow(isStale: true),
      controls: queue.controls, clock: queue.now)
  }
}
