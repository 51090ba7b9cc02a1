import Foundation

/// The simulated App Store: a StoreKit-1-faithful payment queue over a catalog, a ledger and a clock.
///
/// Every input (a payment, a confirmation, `finish`, `restore`, a clock advance, …) changes state in
/// one step: the change is committed to the ledger first, then observers are told, in the order they
/// were added, and the same events are posted on ``bus``. The queue is confined to one thread (the
/// runner's, or the TUI's main queue); other threads reach it by hopping onto that thread.
///
/// > Important: an unfinished transaction is delivered again on every ``launch()`` until the app
/// > finishes it. Nothing a user was told was bought is ever lost; nothing is granted twice.
public final class PaymentQueue {
  public let catalog: Catalog
  public let bus: EventBus
  /// The sandbox switches, seeded from the catalog's settings and changed at run time.
  public internal(set) var controls: SandboxControls
  /// The virtual clock.
  public internal(set) var now: Date
  /// The signed-in sandbox account, if any.
  public internal(set) var currentAccount: String?
  /// The sheet currently shown, if any.
  public internal(set) var prompt: PurchasePrompt?
  /// The most recently created or changed transaction (`last` in scenarios).
  public internal(set) var lastTransactionID: PaymentTransaction.ID?

  var environment: StoreEnvironment
  var accounts: [String: SandboxAccount] = [:]
  var transactions: [PaymentTransaction.ID: PaymentTransaction] = [:]
  var order: [PaymentTransaction.ID] = []
  /// Purchases waiting for their sheet, behind the one showing.
  var waitingForPrompt: [PaymentTransaction.ID] = []
  var timers: [ScheduledAction.Entry] = []
  var nextTimerSequence = 0
  var nextID: UInt64
  var reservedIDs: Range<UInt64> = 0..<0
  var nextRequestID = 1
  var rng: SplitMix64
  var subscriptionRecords: [PaymentTransaction.ID: SubscriptionRecord] = [:]
  /// Records written by the commit in progress.
  var stagedRecords: [SubscriptionRecord] = []
  /// Status changes to announce right after the transaction update that caused them.
  var pendingStatusEvents: [StoreEvent] = []
  var nextLineItemID: UInt64 = 0
  var pendingRequests: [Int: [String]] = [:]
  var productCallbacks: [Int: (Result<ProductsResponse, StoreKitError>) -> Void] = [:]
  private var observers: [ObjectIdentifier: (order: Int, observer: any PaymentTransactionObserver)] = [:]
  private var observerSequence = 0

  /// Opens the store on `catalog`, loading accounts, history and the clock from the ledger.
  ///
  /// - Throws: ``LedgerError`` when the ledger cannot be read.
  public init(catalog: Catalog, environment: StoreEnvironment, bus: EventBus = EventBus()) throws(LedgerError) {
    self.catalog = catalog
    self.bus = bus
    self.environment = environment
    self.controls = SandboxControls(settings: catalog.settings)
    self.now = environment.start
    self.nextID = environment.firstTransactionID
    self.rng = SplitMix64(seed: environment.seed)
    try reload()
  }

  // MARK: Observers

  /// Adds an observer; it hears every later callback, after those added before it.
  public func add(_ observer: any PaymentTransactionObserver) {
    observerSequence += 1
    observers[ObjectIdentifier(observer)] = (observerSequence, observer)
    orderedObservers = observers.values.sorted { $0.order < $1.order }.map(\.observer)
  }

  public func remove(_ observer: any PaymentTransactionObserver) {
    observers[ObjectIdentifier(observer)] = nil
    orderedObservers = observers.values.sorted { $0.order < $1.order }.map(\.observer)
  }

  /// Simulates the app starting: unfinished transactions of the signed-in account are delivered again.
  ///
  /// A transaction left `purchasing` (the app died while its sheet was up) gets its sheet back, and
  /// becomes this session's. One whose sheet another running process shows (same ledger, same
  /// account) is left to that process: it is neither delivered nor shown here. See ``AppSession``.
  public func launch() {
    let unfinished = takeOverAbandonedPurchases(in: queue)
    // What the app just heard about is what a scenario's `last` means, also in a new process.
    if let newest = unfinished.last { lastTransactionID = newest.id }
    if !unfinished.isEmpty { emit([.transactionsUpdated(unfinished)]) }
    for transaction in unfinished where transaction.state == .purchasing && !waitingForPrompt.contains(transaction.id) {
      waitingForPrompt.append(transaction.id)
    }
    presentNextPrompt()
  }

  /// Simulates quitting and relaunching the app: in-memory state is dropped and re-read from the ledger,
  /// then ``launch()`` redelivers what is unfinished.
  public func relaunch() throws(LedgerError) {
    try reload()
    launch()
  }

  func reload() throws(LedgerError) {
    let snapshot = try environment.ledger.load()
    apply(snapshot)
    currentAccount = snapshot.values[ValueKey.account].flatMap { $0.isEmpty ? nil : $0 }
    if let clock = snapshot.values[ValueKey.clock].flatMap(Double.init) {
      now = max(now, Date(timeIntervalSince1970: clock))
    }
    reservedIDs = 0..<0
    prompt = nil
    waitingForPrompt = []
    timers = []
    productCallbacks = [:]
    pendingRequests = [:]
  }

  /// Re-reads history, accounts and subscription records from the ledger, keeping the sheets, timers
  /// and signed-in account of this process: another process may have bought or finished something.
  /// Safe because this process's own changes are always in the ledger before they are in memory.
  func refreshHistory() throws(EngineError) {
    do {
      apply(try environment.ledger.load())
    } catch {
      throw .ledger(error)
    }
  }

  private func apply(_ snapshot: LedgerSnapshot) {
    accounts = Dictionary(snapshot.accounts.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    transactions = [:]
    order = []
    for transaction in snapshot.transactions {
      if transactions.updateValue(transaction, forKey: transaction.id) == nil { order.append(transaction.id) }
    }
    if let maxID = order.max() { nextID = max(nextID, maxID.rawValue + 1) }
    subscriptionRecords = [:]
    for (key, value) in snapshot.values where key.hasPrefix("subscription.") {
      if let record = try? Self.recordDecoder.decode(SubscriptionRecord.self, from: Data(value.utf8)) {
        subscriptionRecords[record.originalID] = record
        nextLineItemID = max(nextLineItemID, record.webOrderLineItemID >= 1_000_000_000 ? record.webOrderLineItemID - 1_000_000_000 : 0)
      }
    }
    for transaction in snapshot.transactions {
      if let item = transaction.webOrderLineItemID, item >= 1_000_000_000 {
        nextLineItemID = max(nextLineItemID, item - 1_000_000_000)
      }
    }
  }

  enum ValueKey {
    static let account = "account"
    static let clock = "clock"
  }

  // MARK: Committing and announcing

  /// Commits `changed` transactions (signing the ones that need it) plus `extra` changes, then updates
  /// memory. Nothing changes in memory if the commit fails.
  @discardableResult
  func commit(_ changed: [PaymentTransaction], extra: [LedgerChange] = []) throws(EngineError) -> [PaymentTransaction] {
    var signed: [PaymentTransaction] = []
    signed.reserveCapacity(changed.count)
    var changes: [LedgerChange] = []
    changes.reserveCapacity(changed.count + extra.count)
    for var transaction in changed {
      // Only a sheet still to be answered belongs to a session (checked first: no copy otherwise).
      if transaction.ownerSession != nil, transaction.state != .purchasing { transaction.ownerSession = nil }
      // Signed once when it becomes purchased or restored; a refund clears the JWS to re-sign it.
      if transaction.signedTransaction == nil, transaction.state == .purchased || transaction.state == .restored {
        transaction.signedTransaction = try sign(transaction)
        transaction.signedRenewalInfo = try signRenewal(for: transaction)
        if let failure = controls.failures[.verification], roll(failure.chance) {
          // StoreKit 2's `.unverified`: the JWS is there but its signature does not check out.
          transaction.signedTransaction = transaction.signedTransaction.map(Self.breakingSignature)
        }
      }
      changes.append(.putTransaction(transaction))
      signed.append(transaction)
    }
    changes.append(contentsOf: extra)
    do {
      try environment.ledger.commit(changes)
    } catch {
      stagedRecords = []
      throw .ledger(error)
    }
    for record in stagedRecords { subscriptionRecords[record.originalID] = record }
    stagedRecords = []
    for transaction in signed {
      if transactions.updateValue(transaction, forKey: transaction.id) == nil { order.append(transaction.id) }
      lastTransactionID = transaction.id
    }
    return signed
  }

  private func sign(_ transaction: PaymentTransaction) throws(EngineError) -> String? {
    do {
      return try environment.signTransaction(transaction, now)
    } catch {
      throw .signing(transaction: transaction.id, reason: String(describing: error))
    }
  }

  /// The renewal info of an auto-renewable transaction, from its chain's (staged or stored) record.
  private func signRenewal(for transaction: PaymentTransaction) throws(EngineError) -> String? {
    guard transaction.productKind == .autoRenewableSubscription, transaction.expiresDate != nil,
      let record = stagedRecords.last(where: { $0.originalID == transaction.originalID })
        ?? subscriptionRecords[transaction.originalID]
    else { return nil }
    let renewalPrice = catalog.product(record.renewalProductID)?.price ?? transaction.price
    guard var info = RenewalInfo(renewing: transaction, renewalPrice: renewalPrice, autoRenewProductID: record.renewalProductID)
    else { return nil }
    info.autoRenewStatus = record.autoRenew
    info.isInBillingRetryPeriod = record.status == .inBillingRetry || record.status == .inGracePeriod
    info.gracePeriodExpiresDate = record.gracePeriodExpiresDate
    info.expirationIntent = record.expirationIntent.flatMap(RenewalInfo.ExpirationIntent.init(rawValue:))
    do {
      return try environment.signRenewalInfo(info, now)
    } catch {
      throw .signing(transaction: transaction.id, reason: String(describing: error))
    }
  }

  /// The JWS with its signature replaced by zeros: still well formed, never verifiable.
  static func breakingSignature(_ jws: String) -> String {
    var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3 else { return jws }
    parts[2] = Data(repeating: 0, count: 64).base64URLEncoded
    return parts.joined(separator: ".")
  }

  /// Tells observers, then the bus, about each event in order.
  /// Observers in the order they were added (kept sorted on add and remove, not on every event).
  private(set) var orderedObservers: [any PaymentTransactionObserver] = []

  func emit(_ events: [StoreEvent]) {
    let ordered = orderedObservers
    for event in events {
      for observer in ordered {
        switch event {
        case .transactionsUpdated(let list): observer.updatedTransactions(list)
        case .transactionsRemoved(let list): observer.removedTransactions(list)
        case .restoreFinished: observer.restoreCompletedTransactionsFinished()
        case .restoreFailed(let error): observer.restoreCompletedTransactionsFailed(with: error)
        default: break
        }
      }
      bus.post(event)
    }
  }

  /// Reports misuse as an event and returns the error for the caller to throw.
  func misuse(_ error: EngineError) -> EngineError {
    emit([.misuse(error)])
    return error
  }

  /// The next transaction id, from a block reserved in the ledger so that several processes on one
  /// data directory never collide. Blocks are consecutive, so one process's ids stay predictable.
  func makeTransactionID() throws(EngineError) -> PaymentTransaction.ID {
    if reservedIDs.isEmpty {
      do {
        let start = try environment.ledger.reserveTransactionIDs(count: Self.idBlock, atLeast: nextID)
        reservedIDs = start..<(start + Self.idBlock)
      } catch {
        throw .ledger(error)
      }
    }
    let id = reservedIDs.lowerBound
    reservedIDs = (id + 1)..<reservedIDs.upperBound
    nextID = id + 1
    return PaymentTransaction.ID(id)
  }

  static let idBlock: UInt64 = 64

  /// Draws from the seeded generator: true with probability `chance`.
  func roll(_ chance: Double) -> Bool {
    if chance >= 1 { return true }
    if chance <= 0 { return false }
    return Double(rng.next() >> 11) / Double(1 << 53) < chance
  }
}
