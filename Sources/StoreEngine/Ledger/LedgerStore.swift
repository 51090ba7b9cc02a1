import Foundation

/// Durable storage for the store: transactions, sandbox accounts, subscription records, the
/// signed-in account and the clock.
///
/// > Important: ``commit(_:)`` must be atomic and durable when it returns: the engine tells observers
/// > about a change only after its commit succeeded. Applying the same change twice does nothing.
public protocol LedgerStore: AnyObject {
  /// What a launch needs: every unfinished transaction, the first and the current transaction of
  /// each non-consumable chain and of each subscription that has not ended, every account and
  /// subscription record, the signed-in account and the clock. Not the whole history: a launch costs the same on a ledger of
  /// a hundred transactions and of a hundred thousand.
  func load() throws(LedgerError) -> LedgerSnapshot
  /// Applies `changes` in order as one atomic unit.
  func commit(_ changes: [LedgerChange]) throws(LedgerError)
  /// Reserves `count` consecutive transaction ids, starting at `floor` or later, that no other user
  /// of the same ledger (another process) will get; returns the first.
  func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64
  /// Every transaction of `account`, oldest first.
  func history(account: String) throws(LedgerError) -> [PaymentTransaction]
  /// Every transaction of every account, in first-insertion order (listings and tests).
  func allTransactions() throws(LedgerError) -> [PaymentTransaction]
  /// The stored transactions with these ids (those that exist), in the order of `ids`.
  func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction]
  /// At most `limit` transactions of `account` (nil: of every account) in `order`, after `cursor`
  /// (nil: from the start). Reading a history page by page holds one page, never the whole history.
  func historyPage(
    account: String?, order: HistoryOrder, after cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage
  /// At most `limit` transactions of `account` that `filter` keeps, in insertion order, after
  /// `cursor` (nil: from the start): `Transaction.all`'s pages, without decoding the rows it skips.
  func historyPage(
    account: String, after cursor: HistoryCursor?, limit: Int, keeping filter: HistoryFilter
  ) throws(LedgerError) -> HistoryPage
  /// The same page read the other way: at most `limit` transactions newest-first in `order`, before
  /// `cursor` (nil: from the newest); `next` continues towards the oldest. Get Transaction History's
  /// descending sort reads it.
  func historyPage(
    account: String?, order: HistoryOrder, before cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage
  /// The ``TransactionSummary`` of each row of the insertion-order page
  /// `historyPage(account:order: .insertion, after: cursor, limit:)` would read, with its cursor:
  /// what a listing shows, without decoding the rest of each row. With `expiringOnly`, only the
  /// rows with an expiry date (a page may then hold fewer than `limit` rows and still have a next).
  func historySummaryPage(
    account: String?, after cursor: HistoryCursor?, limit: Int, expiringOnly: Bool
  ) throws(LedgerError) -> HistorySummaryPage
  /// Consumable units bought by `account` (purchased, not revoked), by product: what an entitlement
  /// check needs of a consumable history, without reading it.
  func consumableUnits(account: String) throws(LedgerError) -> [Product.ID: Int]
  /// How many transactions `account` (nil: every account) has: a listing's "N transactions"
  /// without reading them.
  func transactionCount(account: String?) throws(LedgerError) -> Int
  /// Rows `offset..<offset + limit` of the history of `account` (nil: every account) in `order`:
  /// a scrolling view's window, wherever it is scrolled to.
  func historyRows(account: String?, order: HistoryOrder, offset: Int, limit: Int) throws(LedgerError) -> [PaymentTransaction]
  /// The newest transaction of `account` (by purchase date, then id) that `match` accepts: what a
  /// query about one product or one chain needs of a history, without reading it.
  func latestTransaction(account: String, matching match: TransactionMatch) throws(LedgerError) -> PaymentTransaction?
  /// At most `limit` revoked transactions of `account` in revocation order (``RevocationKey``:
  /// revocation ms, then id), after `cursor` (nil: from the first revocation). Get Refund History's
  /// pages, without reading the rest of the history.
  func revokedPage(account: String, after cursor: RevocationKey?, limit: Int) throws(LedgerError) -> RevokedPage
  /// The same newest-first, before `cursor` (nil: from the newest revocation); `next` continues
  /// towards the oldest. The deprecated v1 refund lookup's 50 newest.
  func revokedPage(account: String, before cursor: RevocationKey?, limit: Int) throws(LedgerError) -> RevokedPage
  /// The subscription records of `account` whose status is in `statuses` (nil: every one), by
  /// original transaction id: Get All Subscription Statuses (and its `status` filter), without
  /// the other accounts' records, the other statuses' or the launch working set.
  func subscriptions(account: String, statuses: Set<SubscriptionStatus>?) throws(LedgerError) -> [SubscriptionRecord]
  /// If transaction `id` is stored unfinished, `purchasing` and owned by `expectedOwner` (nil: no
  /// owner), makes `session` its owner atomically and returns it as stored; otherwise changes
  /// nothing and returns nil (another process claimed, answered or finished it first).
  ///
  /// The default reads, then commits: right for a ledger only one process uses. A ledger several
  /// processes share implements it as one compare-and-set, so that of two processes launching at
  /// once only one takes an abandoned purchase over.
  func claimPurchase(
    _ id: PaymentTransaction.ID, from expectedOwner: String?, for session: String
  ) throws(LedgerError) -> PaymentTransaction?
  /// What other processes committed after `position` (a ``LedgerSnapshot/position`` or an earlier
  /// answer's): their commits from the ledger's commit log, in order, each as typed changes. The
  /// default, for a ledger only one process uses, has nothing to report.
  func changes(since position: UInt64) throws(LedgerError) -> LedgerChanges
  /// The mass renewal-date extension `requestID` of `productID`, if one was made.
  func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension?
}

/// What other users of a ledger committed since a position: their commits, in order, each with
/// its typed changes (``CommitLog``).
public struct LedgerChanges: Sendable, Equatable {
  /// Where the reader stands after these commits.
  public var position: UInt64
  public var commits: [LedgerCommitRecord]
  /// The log no longer reaches back to the position asked for (it was trimmed behind it): the
  /// reader starts over from the present (``LedgerStore/load()``) instead of replaying history.
  public var startOver: Bool

  public init(position: UInt64, commits: [LedgerCommitRecord] = [], startOver: Bool = false) {
    self.position = position
    self.commits = commits
    self.startOver = startOver
  }

  /// Every change of every commit, in order.
  public var changes: [LedgerChange] { commits.flatMap(\.changes) }

  /// The transactions put, in order (each once: the read's rows are as they are now).
  public var transactions: [PaymentTransaction] {
    changes.compactMap { if case .putTransaction(let transaction) = $0 { transaction } else { nil } }
  }

  /// The subscription records put, in order.
  public var subscriptions: [SubscriptionRecord] {
    changes.compactMap { if case .putSubscription(let record) = $0 { record } else { nil } }
  }

  /// The clock, when one of the commits moved it.
  public var clock: Date? {
    changes.reversed().lazy.compactMap { if case .setClock(let date) = $0 { date } else { nil } }.first
  }
}

extension LedgerStore {
  public func changes(since position: UInt64) throws(LedgerError) -> LedgerChanges { LedgerChanges(position: position) }

  public func claimPurchase(
    _ id: PaymentTransaction.ID, from expectedOwner: String?, for session: String
  ) throws(LedgerError) -> PaymentTransaction? {
    guard var transaction = try transactions([id]).first, transaction.state == .purchasing,
      !transaction.isFinished, transaction.ownerSession == expectedOwner
    else { return nil }
    transaction.ownerSession = session
    try commit([.putTransaction(transaction)])
    return transaction
  }
}

/// One change to the ledger. Upserts are keyed by id, so replaying a change is harmless.
public enum LedgerChange: Sendable, Equatable {
  case putTransaction(PaymentTransaction)
  /// The transaction, now finished: the ledger holds it already and only its finished flag
  /// changed, so a store may write that flag alone (a day of renewals finished at once is 43,200
  /// of these; rewriting each signed row doubled the day's cost). A reader treats it as a put.
  case finishTransaction(PaymentTransaction)
  case putAccount(SandboxAccount)
  /// Removes every transaction and Ask to Buy request of the account ("clear purchase history");
  /// its subscription records go with their own ``removeSubscription(_:)`` changes.
  case clearHistory(account: String)
  /// Stores a subscription chain's record, keyed by its original transaction id.
  case putSubscription(SubscriptionRecord)
  case removeSubscription(PaymentTransaction.ID)
  /// The signed-in account, or nil when signed out.
  case setCurrentAccount(String?)
  /// The virtual clock.
  case setClock(Date)
  /// Stores an Ask to Buy request, keyed by its first transaction's id.
  case putAskToBuyRequest(AskToBuyRequest)
  /// Removes one transaction from the history (`SKTestSession.deleteTransaction(identifier:)`).
  case deleteTransaction(PaymentTransaction.ID)
  /// A mass renewal-date extension and its outcome (App Store Server API), by product and request id.
  case putMassExtension(MassExtension)
  /// A notification for the app's server, into the outbox: committed in the same batch as its cause.
  case putNotification(ServerNotification)
  /// The app's server's notification URL for an environment (`Sandbox`, `Production`); nil removes it.
  case setNotificationURL(environment: String, url: String?)
  /// One value of the device (``DeviceValues``: who is attached, a sheet's answer), by key; nil
  /// removes it. What processes on one store tell each other, beside the ledger's own records.
  case setDeviceValue(key: String, value: String?)
  /// A precondition, not a write: the batch commits only if transaction `id` is stored unfinished,
  /// `purchasing` and owned by `session` when the batch begins; otherwise nothing of it is written
  /// and the commit throws ``LedgerError/takenOver(path:transaction:owner:)``. The engine adds it
  /// before a step moves its own purchase out of `purchasing`, so that an answer to a sheet that
  /// another process took over meanwhile (a client cut off from a shared ledger) is never written.
  case expectOwner(PaymentTransaction.ID, session: String)
  /// A precondition, not a write: the batch commits only if device value `key` is `value` (nil:
  /// absent) when the batch begins; otherwise nothing of it is written and the commit throws
  /// ``LedgerError/deviceValueChanged(path:key:)``. A compare-and-set: the engine adds it before
  /// counting an offer code's redemption, so that two processes redeeming its last use at once
  /// cannot both succeed (DECISIONS §45).
  case expectDeviceValue(key: String, value: String?)
}

/// What a ledger holds (for ``LedgerStore/load()``: what a launch needs).
public struct LedgerSnapshot: Sendable, Equatable {
  public var transactions: [PaymentTransaction]
  public var accounts: [SandboxAccount]
  public var subscriptions: [SubscriptionRecord]
  /// Ask to Buy requests not yet approved (pending or declined).
  public var askToBuyRequests: [AskToBuyRequest] = []
  public var currentAccount: String?
  public var clock: Date?
  /// The notification URLs by environment.
  public var notificationURLs: [String: String] = [:]
  /// The device values (``DeviceValues``), by key.
  public var deviceValues: [String: String] = [:]
  /// Where the ledger's change feed stood when this was read (``LedgerStore/changes(since:)``).
  public var position: UInt64 = 0

  public init(
    transactions: [PaymentTransaction] = [], accounts: [SandboxAccount] = [], subscriptions: [SubscriptionRecord] = [],
    currentAccount: String? = nil, clock: Date? = nil
  ) {
    self.transactions = transactions
    self.accounts = accounts
    self.subscriptions = subscriptions
    self.currentAccount = currentAccount
    self.clock = clock
  }
}

extension LedgerSnapshot {
  /// The launch working set out of `all` transactions (in ledger order): unfinished ones, and the
  /// first and the current period (the newest purchased row with an expiry) of each chain that
  /// still matters: a non-consumable's, a non-renewing subscription's, or an auto-renewable one
  /// whose record in `subscriptions` is not expired or revoked (or that has no record).
  public static func workingSet(of all: [PaymentTransaction], subscriptions: [SubscriptionRecord]) -> [PaymentTransaction] {
    let ended = Set(subscriptions.filter { $0.status == .expired || $0.status == .revoked }.map(\.originalID))
    var first: [PaymentTransaction.ID: (offset: Int, kind: ProductKind)] = [:]
    var current: [PaymentTransaction.ID: Int] = [:]
    for (offset, transaction) in all.enumerated() where transaction.productKind != .consumable {
      if first[transaction.originalID] == nil { first[transaction.originalID] = (offset, transaction.productKind) }
      if transaction.state == .purchased, transaction.expiresDate != nil { current[transaction.originalID] = offset }
    }
    var keep: Set<Int> = []
    for (original, chain) in first where chain.kind != .autoRenewableSubscription || !ended.contains(original) {
      keep.insert(chain.offset)
      if let offset = current[original] { keep.insert(offset) }
    }
    return all.enumerated().filter { !$0.element.isFinished || keep.contains($0.offset) }.map(\.element)
  }
}

/// Why the ledger could not be read or written. Every case names the file (or, for a shared ledger,
/// the database as `postgresql://user@host:port/db`, never with its password) it concerns.
public enum LedgerError: Error, Sendable, Equatable {
  case cannotOpen(path: String, reason: String)
  case corrupt(path: String, reason: String)
  case newerSchema(path: String, found: Int, supported: Int)
  case busy(path: String)
  case writeFailed(path: String, reason: String)
  case readOnly(path: String)
  /// A ledger database server could not be reached or refused the connection.
  case unreachable(server: String, reason: String)
  /// A batch's ``LedgerChange/expectOwner(_:session:)`` did not hold: the purchase is no longer
  /// this process's to answer. `owner` is the session that holds it now, nil when it is no longer
  /// `purchasing` (answered elsewhere) or gone. Nothing of the batch was written.
  case takenOver(path: String, transaction: PaymentTransaction.ID, owner: String?)
  /// A batch's ``LedgerChange/expectDeviceValue(key:value:)`` did not hold: another process changed
  /// the device value `key` since this one read it. Nothing of the batch was written.
  case deviceValueChanged(path: String, key: String)
}

extension LedgerError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "Cannot open the ledger '\(path)': \(reason). Check the data directory's permissions or pass --data-dir."
    case .corrupt(let path, let reason):
      "The ledger '\(path)' is damaged (\(reason)). Move it aside to start a fresh one; nothing was written."
    case .newerSchema(let path, let found, let supported):
      "The ledger '\(path)' has schema version \(found), newer than this storefront supports (\(supported)). Upgrade storefront or use another \(Self.option(for: path))."
    case .busy(let path):
      "The ledger '\(path)' is locked by another process for too long. Close the other storefront and try again."
    case .writeFailed(let path, let reason):
      "Could not write the ledger '\(path)': \(reason). Nothing was changed."
    case .readOnly(let path):
      "The ledger '\(path)' is read-only. Make the data directory writable or pass --data-dir."
    case .unreachable(let server, let reason):
      "Cannot reach the ledger database '\(server)': \(reason). Check that the server runs and the URI in --ledger or $STOREFRONT_LEDGER (a password goes in ~/.pgpass or $PGPASSWORD)."
    case .takenOver(let path, let id, let owner):
      "The purchase of transaction \(id) in the ledger '\(path)' was \(owner.map { "taken over by session \($0)" } ?? "answered") by another process; nothing was written. Launch again to see it as it is now."
    case .deviceValueChanged(let path, let key):
      "The value '\(key)' in the ledger '\(path)' was changed by another process meanwhile; nothing was written. Try again."
    }
  }

  /// The option that picks another ledger of the same kind.
  private static func option(for path: String) -> String {
    path.hasPrefix("postgresql://") ? "--ledger" : "--data-dir"
  }
}
