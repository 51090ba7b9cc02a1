import Foundation

/// A ledger in memory, for tests and benchmarks. Same semantics as the SQLite one, no durability.
public final class InMemoryLedgerStore: LedgerStore {
  private var order: [PaymentTransaction.ID] = []
  private var byID: [PaymentTransaction.ID: PaymentTransaction] = [:]
  private var accounts: [SandboxAccount] = []
  private var subscriptions: [PaymentTransaction.ID: SubscriptionRecord] = [:]
  private var requests: [PaymentTransaction.ID: AskToBuyRequest] = [:]
  private var massExtensions: [MassExtensionKey: MassExtension] = [:]
  /// The outbox, in commit order.
  public private(set) var outbox: [ServerNotification] = []
  /// Delivery state by outbox sequence (1-based), for the entries an attempt or a redelivery touched.
  var deliveries: [Int64: OutboxEntry] = [:]
  private var notificationURLs: [String: String] = [:]
  private var currentAccount: String?
  private var clock: Date?
  private var nextID: UInt64 = 0
  /// The largest id ever put (kept as rows arrive, so reserving ids does not scan them).
  private var largestID: UInt64 = 0
  /// How many commits were made (tests assert write-before-notify with it).
  public private(set) var commitCount = 0
  /// Makes the next commit fail, to test that a failed write changes nothing.
  public var failNextCommit: LedgerError?

  public init(_ snapshot: LedgerSnapshot = LedgerSnapshot()) {
    for transaction in snapshot.transactions { put(transaction) }
    accounts = snapshot.accounts
    for record in snapshot.subscriptions { subscriptions[record.originalID] = record }
    for request in snapshot.askToBuyRequests { requests[request.id] = request }
    currentAccount = snapshot.currentAccount
    clock = snapshot.clock
    notificationURLs = snapshot.notificationURLs
  }

  /// Everything stored, whole history included (tests compare ledgers with it).
  public var everything: LedgerSnapshot {
    var snapshot = LedgerSnapshot(
      transactions: order.compactMap { byID[$0] }, accounts: accounts,
      subscriptions: subscriptions.values.sorted { $0.originalID < $1.originalID },
      currentAccount: currentAccount, clock: clock)
    snapshot.askToBuyRequests = requests.values.sorted { $0.id < $1.id }
    snapshot.notificationURLs = notificationURLs
    return snapshot
  }

  public func load() throws(LedgerError) -> LedgerSnapshot {
    var snapshot = everything
    snapshot.transactions = LedgerSnapshot.workingSet(of: snapshot.transactions, subscriptions: snapshot.subscriptions)
    snapshot.askToBuyRequests.removeAll { !$0.isOpen }
    return snapshot
  }

  public func commit(_ changes: [LedgerChange]) throws(LedgerError) {
    if let failure = failNextCommit {
      failNextCommit = nil
      throw failure
    }
    let expectations = LedgerChange.ownerExpectations(in: changes)
    if !expectations.isEmpty,
      let violation = LedgerChange.violation(
        of: expectations, stored: expectations.compactMap { byID[$0.id] }, path: "in-memory")
    {
      throw violation
    }
    commitCount += 1
    for change in changes {
      switch change {
      case .putTransaction(let transaction): put(transaction)
      case .putAccount(let account):
        accounts.removeAll { $0.name == account.name }
        accounts.append(account)
      case .clearHistory(let account):
        order.removeAll { byID[$0]?.account == account }
        byID = byID.filter { $0.value.account != account }
        requests = requests.filter { $0.value.account != account }
      case .putSubscription(let record): subscriptions[record.originalID] = record
      case .removeSubscription(let id): subscriptions[id] = nil
      case .setCurrentAccount(let name): currentAccount = name
      case .setClock(let date): clock = date
      case .putAskToBuyRequest(let request): requests[request.id] = request
      case .deleteTransaction(let id):
        if byID.removeValue(forKey: id) != nil { order.removeAll { $0 == id } }
      case .putMassExtension(let request):
        massExtensions[MassExtensionKey(productID: request.productID, requestID: request.requestID)] = request
      case .putNotification(let notification): outbox.append(notification)
      case .setNotificationURL(let environment, let url): notificationURLs[environment] = url
      case .expectOwner: break  // Checked above, before anything was applied.
      }
    }
  }

  public func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 {
    let start = max(nextID, largestID + 1, floor)
    nextID = start + count
    return start
  }

  public func history(account: String) throws(LedgerError) -> [PaymentTransaction] {
    order.compactMap { byID[$0] }.filter { $0.account == account }
  }

  public func allTransactions() throws(LedgerError) -> [PaymentTransaction] { order.compactMap { byID[$0] } }

  public func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] {
    ids.compactMap { byID[$0] }
  }

  public func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? {
    massExtensions[MassExtensionKey(productID: productID, requestID: requestID)]
  }

  private struct MassExtensionKey: Hashable {
    var productID: Product.ID
    var requestID: String
  }

  private func put(_ transaction: PaymentTransaction) {
    largestID = max(largestID, transaction.id.rawValue)
    if byID.updateValue(transaction, forKey: transaction.id) == nil { order.append(transaction.id) }
  }
}
