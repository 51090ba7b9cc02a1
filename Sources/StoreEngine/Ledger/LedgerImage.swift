import Foundation

/// What a ledger holds, as a value: the one meaning of every ``LedgerChange``.
///
/// ``apply(_:)`` is the semantics the stores implement in SQL; ``InMemoryLedgerStore`` is this value
/// behind the ``LedgerStore`` protocol, and each front end keeps an image scoped to the signed-in
/// account as its read model: it applies the committed changes the bus carries (``LedgerCommit``)
/// and redraws what ``Touched`` names. A view that derives from the image cannot go stale, because
/// every write is a change.
public struct LedgerImage: Sendable, Equatable {
  /// Whose transactions, subscription records and Ask to Buy requests the image keeps: nil keeps
  /// every account's (a whole ledger); a name keeps that account's and account-less ones.
  public private(set) var scope: String?
  /// How ``transactions`` are ordered.
  public let order: Order
  /// Transactions in ``order``.
  public private(set) var transactions: [PaymentTransaction] = []
  private var index: [PaymentTransaction.ID: Int] = [:]
  public private(set) var accounts: [SandboxAccount] = []
  private var records: [PaymentTransaction.ID: SubscriptionRecord] = [:]
  private var requests: [PaymentTransaction.ID: AskToBuyRequest] = [:]
  public private(set) var currentAccount: String?
  public private(set) var clock: Date?
  public private(set) var notificationURLs: [String: String] = [:]
  public private(set) var deviceValues: [String: String] = [:]
  /// The largest transaction id ever put (ids are never handed out twice).
  public private(set) var largestID: UInt64 = 0

  /// The order of ``transactions``.
  public enum Order: Sendable, Equatable {
    /// First insertion, as the ledger stores them (a whole ledger's image).
    case insertion
    /// Oldest purchase date first, then id: the same for a view that saw changes arrive from
    /// several processes, interleaved, as for one read afresh from the ledger.
    case chronological
  }

  /// What one ``apply(_:)`` changed, so that a view redraws only that.
  public struct Touched: Sendable, Equatable {
    /// Products whose transactions or subscription records changed (old and new product of a record).
    public var products: Set<Product.ID> = []
    /// Transactions put or removed.
    public var transactions: Set<PaymentTransaction.ID> = []
    /// The previous version of each transaction put (nil: it was new), for "what changed" notices.
    public var previous: [PaymentTransaction.ID: PaymentTransaction?] = [:]
    public var accounts = false
    /// The signed-in account changed: a scoped image no longer shows the right account.
    public var currentAccount = false
    public var clock = false
    public var notificationURLs = false
    public var deviceValues = false

    public init() {}

    public var isEmpty: Bool {
      products.isEmpty && transactions.isEmpty && !accounts && !currentAccount && !clock && !notificationURLs && !deviceValues
    }

    public mutating func formUnion(_ other: Touched) {
      products.formUnion(other.products)
      transactions.formUnion(other.transactions)
      for (id, version) in other.previous where previous[id] == nil { previous[id] = version }
      accounts = accounts || other.accounts
      currentAccount = currentAccount || other.currentAccount
      clock = clock || other.clock
      notificationURLs = notificationURLs || other.notificationURLs
      deviceValues = deviceValues || other.deviceValues
    }
  }

  /// An image of `snapshot`, keeping what `scope` keeps (nil: everything).
  public init(_ snapshot: LedgerSnapshot = LedgerSnapshot(), scope: String? = nil, order: Order = .insertion) {
    self.scope = scope
    self.order = order
    for transaction in snapshot.transactions where keeps(transaction.account) { put(transaction) }
    accounts = snapshot.accounts
    for record in snapshot.subscriptions where keeps(record.account) { records[record.originalID] = record }
    for request in snapshot.askToBuyRequests where keeps(request.account) { requests[request.id] = request }
    currentAccount = snapshot.currentAccount
    clock = snapshot.clock
    notificationURLs = snapshot.notificationURLs
    deviceValues = snapshot.deviceValues
  }

  /// Subscription records, by original transaction id.
  public var subscriptions: [SubscriptionRecord] { records.values.sorted { $0.originalID < $1.originalID } }

  /// Ask to Buy requests, by id.
  public var askToBuyRequests: [AskToBuyRequest] { requests.values.sorted { $0.id < $1.id } }

  public func transaction(_ id: PaymentTransaction.ID) -> PaymentTransaction? { index[id].map { transactions[$0] } }

  public func subscription(_ originalID: PaymentTransaction.ID) -> SubscriptionRecord? { records[originalID] }

  /// Whether the image keeps rows of `account`.
  public func keeps(_ account: String) -> Bool {
    guard let scope else { return true }
    return account == scope || account.isEmpty
  }

  /// Everything, as a snapshot (a whole-ledger image: what the ledger holds).
  public var snapshot: LedgerSnapshot {
    var snapshot = LedgerSnapshot(
      transactions: transactions, accounts: accounts, subscriptions: subscriptions, currentAccount: currentAccount,
      clock: clock)
    snapshot.askToBuyRequests = askToBuyRequests
    snapshot.notificationURLs = notificationURLs
    snapshot.deviceValues = deviceValues
    return snapshot
  }

  /// Applies `changes` in order; returns what they touched. Upserts are keyed by id, so applying a
  /// change twice leaves the image as once (and touches nothing the second time).
  @discardableResult
  public mutating func apply(_ changes: [LedgerChange]) -> Touched {
    var touched = Touched()
    for change in changes { apply(change, &touched) }
    return touched
  }

  private mutating func apply(_ change: LedgerChange, _ touched: inout Touched) {
    switch change {
    case .putTransaction(let transaction), .finishTransaction(let transaction):
      guard keeps(transaction.account) else { return }
      let previous = self.transaction(transaction.id)
      guard previous != transaction else { return }
      put(transaction)
      touched.transactions.insert(transaction.id)
      touched.products.insert(transaction.productID)
      if touched.previous[transaction.id] == nil { touched.previous[transaction.id] = .some(previous) }
    case .putAccount(let account):
      // Kept in the order of each name's latest put, as the stores keep them.
      let known = accounts.contains(account)
      accounts.removeAll { $0.name == account.name }
      accounts.append(account)
      if !known { touched.accounts = true }
    case .clearHistory(let account):
      guard keeps(account) else { return }
      let gone = transactions.filter { $0.account == account }
      guard !gone.isEmpty || requests.values.contains(where: { $0.account == account }) else { return }
      for transaction in gone {
        touched.transactions.insert(transaction.id)
        touched.products.insert(transaction.productID)
      }
      transactions.removeAll { $0.account == account }
      reindex()
      requests = requests.filter { $0.value.account != account }
    case .putSubscription(let record):
      guard keeps(record.account), records[record.originalID] != record else { return }
      if let old = records[record.originalID] { touched.products.insert(old.productID) }
      records[record.originalID] = record
      touched.products.insert(record.productID)
    case .removeSubscription(let id):
      guard let old = records.removeValue(forKey: id) else { return }
      touched.products.insert(old.productID)
    case .setCurrentAccount(let name):
      guard currentAccount != name else { return }
      currentAccount = name
      touched.currentAccount = true
    case .setClock(let date):
      guard clock != date else { return }
      clock = date
      touched.clock = true
    case .putAskToBuyRequest(let request):
      guard keeps(request.account) else { return }
      requests[request.id] = request
    case .deleteTransaction(let id):
      guard let position = index[id] else { return }
      let gone = transactions.remove(at: position)
      reindex()
      touched.transactions.insert(id)
      touched.products.insert(gone.productID)
    case .setNotificationURL(let environment, let url):
      guard notificationURLs[environment] != url else { return }
      notificationURLs[environment] = url
      touched.notificationURLs = true
    case .setDeviceValue(let key, let value):
      guard deviceValues[key] != value else { return }
      deviceValues[key] = value
      touched.deviceValues = true
    case .putMassExtension, .putNotification, .expectOwner, .expectDeviceValue:
      break  // Not part of what a view shows; the stores keep them on their own.
    }
  }

  /// Makes a front end's image show the signed-in `account` (nil: signed out, which keeps only
  /// account-less rows); the caller supplies that account's rows next (``replaceRows(transactions:subscriptions:)``).
  public mutating func show(account: String?) {
    scope = account ?? ""
    currentAccount = account
    transactions = transactions.filter { keeps($0.account) }
    reindex()
    records = records.filter { keeps($0.value.account) }
    requests = requests.filter { keeps($0.value.account) }
  }

  /// Replaces the scoped rows with `transactions` and `subscriptions` (a view read afresh from the ledger).
  public mutating func replaceRows(transactions list: [PaymentTransaction], subscriptions: [SubscriptionRecord]) {
    transactions = []
    index = [:]
    for transaction in list where keeps(transaction.account) { put(transaction) }
    records = [:]
    for record in subscriptions where keeps(record.account) { records[record.originalID] = record }
  }

  /// Drops one transaction without a change (a finished consumable leaving a working set).
  public mutating func forget(_ id: PaymentTransaction.ID) {
    guard let position = index[id] else { return }
    transactions.remove(at: position)
    reindex()
  }

  private mutating func put(_ transaction: PaymentTransaction) {
    largestID = max(largestID, transaction.id.rawValue)
    if let position = index[transaction.id] {
      if order == .insertion || Self.key(transactions[position]) == Self.key(transaction) {
        transactions[position] = transaction
        return
      }
      transactions.remove(at: position)
      index[transaction.id] = nil
      insertChronologically(transaction, reindexFrom: position)
    } else if order == .insertion || transactions.last.map({ Self.key($0) < Self.key(transaction) }) ?? true {
      index[transaction.id] = transactions.count
      transactions.append(transaction)
    } else {
      insertChronologically(transaction, reindexFrom: transactions.count)
    }
  }

  /// Inserts at the place ``Order/chronological`` gives it (a binary search); positions from the
  /// lower of it and `from` on are renumbered.
  private mutating func insertChronologically(_ transaction: PaymentTransaction, reindexFrom from: Int) {
    let key = Self.key(transaction)
    var low = 0
    var high = transactions.count
    while low < high {
      let middle = (low + high) / 2
      if Self.key(transactions[middle]) < key { low = middle + 1 } else { high = middle }
    }
    transactions.insert(transaction, at: low)
    for position in min(low, from)..<transactions.count { index[transactions[position].id] = position }
  }

  private static func key(_ transaction: PaymentTransaction) -> ChronologicalKey {
    ChronologicalKey(date: transaction.purchaseDate, id: transaction.id.rawValue)
  }

  private struct ChronologicalKey: Comparable {
    var date: Date
    var id: UInt64
    static func < (a: Self, b: Self) -> Bool { a.date != b.date ? a.date < b.date : a.id < b.id }
  }

  private mutating func reindex() {
    index = Dictionary(uniqueKeysWithValues: transactions.enumerated().map { ($1.id, $0) })
  }
}
