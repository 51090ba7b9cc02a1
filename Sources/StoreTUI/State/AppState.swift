import Foundation
import SimulatedApp
import StoreEngine
import StoreScenario

/// Everything the storefront shows, as one value: the reducer changes it, ``render(_:)`` draws it.
///
/// Product rows are kept as catalog products plus a status per product; names and prices are
/// formatted only for the rows on screen, so a catalog of any size costs what its visible rows cost.
public struct AppState: Equatable {
  /// The terminal size.
  public var size: Size
  /// The name in the header.
  public var storeName: String
  public var focus: Pane = .store
  /// Catalog products, in catalog order: the Store pane's rows.
  public private(set) var products: [Product]
  private var rowIndex: [Product.ID: Int]
  /// Statuses of products that have one; absent means ``ProductStatus/none``.
  public private(set) var statuses: [Product.ID: ProductStatus] = [:]
  /// The Store rows (indices) the last commit, event or snapshot re-derived, sorted.
  public var lastRefreshedRows: [Int] = []
  /// What the last applied commit touched, with each transaction's version before it: the events
  /// that follow a commit read it to tell a change from a redelivery.
  public internal(set) var lastTouched = LedgerImage.Touched()

  /// The signed-in sandbox account.
  public var account: String?
  public var knownAccounts: [String] = []
  public var controls: SandboxControls
  /// The engine's virtual clock.
  public var clock: Date
  /// The read model: the present of the signed-in account — its unfinished transactions, each
  /// non-consumable's original purchase, its non-renewing purchases, each live subscription's
  /// current period (``isPresent(_:record:)``) and its subscription records — as the ledger has
  /// them, kept current by applying each committed ``LedgerCommit`` (``apply(_:)``). Never the
  /// whole history: that is read a window at a time (``history``).
  public private(set) var image = LedgerImage(scope: "", order: .chronological)
  /// The account's present transactions, oldest first (what the rows and the header derive from).
  public var transactions: [PaymentTransaction] { image.transactions }
  /// Consumable units bought (purchased, not refunded), by product, as the ledger counts them.
  public private(set) var consumableUnits: [Product.ID: Int] = [:]
  /// The Transactions pane's window of the account's history.
  public internal(set) var history = HistoryWindow()
  /// The account's subscription records, by original transaction id.
  public var subscriptions: [SubscriptionRecord] { image.subscriptions }

  /// Selection and scroll position of each pane's list.
  public var scroll: [Pane: PaneScroll] = [:]
  public var sheet: Sheet?
  /// Purchases in flight (transactions `purchasing`).
  public var inFlight: Set<PaymentTransaction.ID> = []
  /// A restore was started and has not finished or failed.
  public var isRestoring = false
  /// Advances on every tick while busy.
  public var spinnerFrame = 0
  public var notice: Notice?
  /// Every observer callback, as the seeds' `print` lines would show it.
  public var log: LogBuffer
  /// The Log pane sticks to the newest line until the user scrolls up.
  public var logFollowsTail = true
  /// Cells the Log pane is scrolled to the right (its lines are long).
  public var logColumn = 0
  /// The same session as a StoreKit 2 app sees it: `purchase()` results, `Transaction.updates`, …
  public var storeKit2Log: LogBuffer
  /// Which view the Log pane shows (`s` toggles).
  public var logAPI: StoreKitAPI = .storeKit1
  /// Turns engine events into the StoreKit 2 lines; it tracks the app's `purchase()` calls.
  public var storeKit2View = StoreKit2View()
  /// The in-process App Store Server API (`--serve`); nil without it, and then there is no Server pane.
  public var server: ServerLog?
  /// The shared ledger's connection; the header warns while it is not ``LedgerConnectionState/connected``.
  public var ledgerConnection: LedgerConnectionState = .connected
  /// The app's server's notification URL for the store's environment (nil: none, no notifications).
  public var notificationURL: String?
  /// Apps attached to this store through the `StoreKit` library (the header names them).
  public var attachedApps: [AttachedProcess] = []
  /// The simulated app's bundle id: transactions of another (attached) app are not in its queue.
  public var appBundleID: String?
  /// When the simulated app finishes transactions, and the purchases it is asking its server about.
  public var appFinisher = AppFinisher()
  /// The app's server URL last set (kept while the mode is not after-server, to cycle back to).
  public var appServerURL: String?
  /// The data directory's server fault; nil when there is no control for it.
  public var serverFault: ServerFaultSetting?
  /// The Catalog pane's document: the catalog file's text and what it decodes to.
  public var catalogEditor: CatalogEditor

  /// The initial state for `catalog` and what the engine knows about the account.
  public init(
    catalog: Catalog, size: Size, snapshot: AccountSnapshot, storeName: String = "Storefront",
    logCapacity: Int = 1000
  ) {
    self.size = size
    self.storeName = storeName
    self.products = catalog.products
    var index: [Product.ID: Int] = [:]
    for (offset, product) in catalog.products.enumerated() where index[product.id] == nil {
      index[product.id] = offset
    }
    self.rowIndex = index
    self.catalogEditor = CatalogEditor(path: nil, bytes: [], catalog: catalog, seed: 0)
    self.controls = snapshot.controls
    self.clock = snapshot.clock
    self.log = LogBuffer(capacity: logCapacity)
    self.storeKit2Log = LogBuffer(capacity: logCapacity)
    load(snapshot)
  }

  /// The log the Log pane shows: the StoreKit 1 or the StoreKit 2 view.
  public var shownLog: LogBuffer { logAPI == .storeKit2 ? storeKit2Log : log }

  /// The panes on screen, in tab order.
  public var panes: [Pane] { server == nil ? Pane.standard : Pane.allCases }

  /// The selected request in the Server pane.
  public var selectedRequest: ServerRequest? {
    guard let requests = server?.requests else { return nil }
    let index = scroll(of: .server).selection
    return requests.indices.contains(index) ? requests[index] : nil
  }

  /// The selected notification in the Server pane, when it lists notifications.
  public var selectedNotification: OutboxEntry? {
    guard let server, server.showsNotifications else { return nil }
    let index = scroll(of: .server).selection
    return server.notifications.indices.contains(index) ? server.notifications[index] : nil
  }

  /// Whether a purchase or restore is in flight (the spinner shows).
  public var isBusy: Bool { !inFlight.isEmpty || isRestoring }

  /// The row index of `product` in the Store pane.
  public func row(of product: Product.ID) -> Int? { rowIndex[product] }

  public func product(_ id: Product.ID) -> Product? { rowIndex[id].map { products[$0] } }

  /// The status of `product`.
  public func status(of product: Product.ID) -> ProductStatus { statuses[product] ?? .none }

  /// The localized name of `product` (its identifier when it is not in the catalog).
  public func displayName(of product: Product.ID) -> String {
    self.product(product)?.displayName(locale: controls.locale) ?? product.rawValue
  }

  /// A price in the storefront's currency and the state's locale.
  public func price(_ amount: Decimal) -> String {
    formatPrice(amount, currency: StorefrontChoices.currency(for: controls.storefront), locale: controls.locale)
  }

  public func scroll(of pane: Pane) -> PaneScroll { scroll[pane] ?? PaneScroll() }

  public func transaction(_ id: PaymentTransaction.ID) -> PaymentTransaction? { image.transaction(id) }

  /// Whether `transaction` belongs to what this screen shows (the signed-in account's).
  public func shows(_ transaction: PaymentTransaction) -> Bool { image.keeps(transaction.account) }

  /// The selected transaction in the Transactions pane (the window holds the selection: it is
  /// read around the pane's scroll position, and the selection is on screen).
  public var selectedTransaction: PaymentTransaction? {
    history.row(at: scroll(of: .transactions).selection)
  }

  /// The unfinished transactions of the account in the simulated app's queue (all of them are in
  /// the present), oldest first.
  public var unfinishedTransactions: [PaymentTransaction] { transactions.filter { !$0.isFinished && otherApp(of: $0) == nil } }

  /// Sets the simulated app's bundle id; another app's purchase is not this app's in flight.
  public mutating func setAppBundleID(_ bundleID: String) {
    appBundleID = bundleID
    inFlight = inFlight.filter { id in transaction(id).map { otherApp(of: $0) == nil } ?? true }
  }

  /// The bundle id of the attached app whose queue `transaction` is in; nil when it is the
  /// simulated app's (or recorded before apps were told apart).
  public func otherApp(of transaction: PaymentTransaction) -> String? {
    guard let owner = transaction.appBundleID, let ours = appBundleID, owner != ours else { return nil }
    return owner
  }

  /// Whether the Transactions pane needs its window read again: it is on screen, and a commit
  /// changed the history or the pane scrolled out of the window it holds. A pane not on screen
  /// reads nothing (a day of renewals commits every second).
  public var needsHistoryWindow: Bool {
    guard focus == .transactions else { return false }
    guard account != nil else { return history != HistoryWindow() }
    return history.isStale || HistoryWindow.range(around: scroll(of: .transactions).firstRow) != history.range
  }

  /// Whether `transaction` belongs to the present a screen keeps (given its chain's record): what
  /// a fresh launch's working set holds of the account, less what no row or header shows.
  public static func isPresent(_ transaction: PaymentTransaction, record: SubscriptionRecord?) -> Bool {
    if !transaction.isFinished { return true }
    switch transaction.productKind {
    case .consumable: return false
    case .nonConsumable: return transaction.id == transaction.originalID
    case .nonRenewingSubscription: return true
    case .autoRenewableSubscription:
      // The current period of a chain that has not ended (its record names the period's line item).
      guard let record, record.status != .expired, record.status != .revoked else { return false }
      return transaction.state == .purchased && transaction.webOrderLineItemID == record.webOrderLineItemID
    }
  }

  /// The selected product in the Store pane.
  public var selectedProduct: Product? {
    let index = scroll(of: .store).selection
    return products.indices.contains(index) ? products[index] : nil
  }

  // MARK: Updating (used by the reducer)

  /// Replaces the account view and re-derives every status.
  mutating func load(_ snapshot: AccountSnapshot) {
    account = snapshot.account
    knownAccounts = snapshot.knownAccounts
    controls = snapshot.controls
    clock = max(clock, snapshot.clock)
    image.show(account: snapshot.account)
    let records = Dictionary(snapshot.subscriptions.map { ($0.originalID, $0) }, uniquingKeysWith: { _, last in last })
    image.replaceRows(
      transactions: snapshot.transactions.filter { Self.isPresent($0, record: records[$0.originalID]) },
      subscriptions: snapshot.subscriptions)
    consumableUnits = snapshot.consumableUnits
    history = snapshot.history
    inFlight = Set(transactions.filter { $0.state == .purchasing && !$0.isFinished && otherApp(of: $0) == nil }.map(\.id))
    let previous = Set(statuses.keys)
    statuses = [:]
    let touched = previous.union(transactions.map(\.productID)).union(subscriptions.map(\.productID))
      .union(consumableUnits.keys)
    lastRefreshedRows = refresh(touched)
    clampScroll(.transactions, count: history.total)
  }

  /// The ledger's consumable counters, read after a commit that touched a consumable.
  mutating func count(_ units: [Product.ID: Int]) {
    guard units != consumableUnits else { return }
    let changed = Set(units.keys).union(consumableUnits.keys).filter { units[$0] != consumableUnits[$0] }
    consumableUnits = units
    lastRefreshedRows = refresh(changed)
  }

  /// A window of the history read from the ledger (for the pane's scroll position at the time).
  mutating func show(_ window: HistoryWindow) {
    history = window
    clampScroll(.transactions, count: window.total)
  }

  /// Applies committed changes to the read model and re-derives the rows they touched (and those
  /// whose status ran out on the clock they moved). Returns what was touched.
  @discardableResult
  mutating func apply(_ commit: LedgerCommit) -> LedgerImage.Touched {
    // A deleted transaction's chain may lose its record with it: its other periods are looked at again.
    var chains: Set<PaymentTransaction.ID> = []
    for change in commit.changes {
      if case .deleteTransaction(let id) = change, let original = image.transaction(id)?.originalID { chains.insert(original) }
    }
    let touched = image.apply(commit.changes)
    if touched.currentAccount {
      // Another account's rows are a new view, read afresh by the runtime (``AppAction/accountLoaded(_:)``).
      account = image.currentAccount
      image.show(account: account)
    }
    // The present keeps what a fresh launch keeps: a finished consumable, a copy, a past period leave it.
    chains.formUnion(touched.transactions.compactMap { image.transaction($0)?.originalID })
    for change in commit.changes {
      switch change {
      case .putSubscription(let record): chains.insert(record.originalID)
      case .removeSubscription(let original): chains.insert(original)
      default: break
      }
    }
    if !chains.isEmpty {
      for transaction in image.transactions where chains.contains(transaction.originalID) {
        if !Self.isPresent(transaction, record: image.subscription(transaction.originalID)) { image.forget(transaction.id) }
      }
    }
    if !touched.transactions.isEmpty || touched.currentAccount { history.isStale = true }
    if touched.accounts {
      for change in commit.changes {
        if case .putAccount(let known) = change, !knownAccounts.contains(known.name) { knownAccounts.append(known.name) }
      }
      knownAccounts.sort()
    }
    var products = touched.products
    if touched.clock, let date = image.clock, date > clock {
      clock = date
      for (id, status) in statuses {
        if let deadline = status.deadline, deadline <= clock { products.insert(id) }
      }
    }
    for id in touched.transactions {
      guard let transaction = image.transaction(id) else {
        inFlight.remove(id)
        continue
      }
      if transaction.state == .purchasing && !transaction.isFinished {
        // Another process's sheet is not this screen's to wait for.
        if commit.origin == .thisProcess { inFlight.insert(id) }
      } else {
        inFlight.remove(id)
      }
    }
    lastRefreshedRows = refresh(products)
    lastTouched = touched
    return touched
  }

  /// Sells `catalog` from now on (the Catalog pane saved or reloaded the file): the Store pane's
  /// rows are its products, each status derived afresh.
  mutating func replaceProducts(with catalog: Catalog) {
    products = catalog.products
    var index: [Product.ID: Int] = [:]
    for (offset, product) in catalog.products.enumerated() where index[product.id] == nil {
      index[product.id] = offset
    }
    rowIndex = index
    statuses = [:]
    lastRefreshedRows = refresh(catalog.products.map(\.id))
  }

  /// Re-derives the statuses of `products`; returns the rows that were refreshed, sorted.
  mutating func refresh(_ products: some Sequence<Product.ID>) -> [Int] {
    var rows: [Int] = []
    for id in Set(products) {
      guard let row = rowIndex[id] else { continue }
      let status = ProductStatus.derive(
        kind: self.products[row].kind, transactions: transactions.filter { $0.productID == id },
        subscriptions: subscriptions.filter { $0.productID == id }, consumableUnits: consumableUnits[id] ?? 0, now: clock)
      statuses[id] = status == .none ? nil : status
      rows.append(row)
    }
    return rows.sorted()
  }

  /// Keeps a pane's selection inside `0..<count`.
  mutating func clampScroll(_ pane: Pane, count: Int) {
    var current = scroll(of: pane)
    current.selection = ScrollViewport.move(current.selection, by: 0, count: count)
    current.firstRow = min(current.firstRow, max(0, count - 1))
    scroll[pane] = current
  }
}
