import Foundation

/// The simulated App Store's shell: a ``StoreMachine`` value, the ledger it commits to, and the
/// observers and bus that hear of each step.
///
/// Every command runs as one step: the machine works out the step on a copy of itself, the shell
/// commits the step's changes as one batch, keeps the new machine only after the commit succeeded,
/// then tells observers (in the order they were added) and posts the same events on ``bus``. A
/// failed commit leaves the store as it was and tells nobody. The queue is confined to one thread
/// (the runner's, or the TUI's main queue).
///
/// > Important: an unfinished transaction is delivered again on every ``launch()`` until the app
/// > finishes it. Nothing a user was told was bought is ever lost; nothing is granted twice.
public final class PaymentQueue {
  public let bus: EventBus
  public let ledger: any LedgerStore
  /// The store's state as of the last committed step.
  public internal(set) var machine: StoreMachine
  private var observers: [(id: ObjectIdentifier, observer: any PaymentTransactionObserver)] = []
  private var productCallbacks: [Int: (Result<ProductsResponse, StoreKitError>) -> Void] = [:]
  /// How far this process has read the ledger's change feed.
  private var ledgerPosition: UInt64 = 0
  /// The clock as the ledger holds it (committed here or taken in from another process).
  public private(set) var ledgerClock: Date?
  /// How far ``passTime(to:)`` may move the clock before the ledger gets it (DECISIONS §41).
  /// The clock's seconds otherwise stay in memory, so an idle screen does not write every second.
  public var clockSaveInterval: TimeInterval = 30
  /// Set when a step of ``passTime(to:)`` kept the clock in memory.
  private var clockPassed = false

  /// Opens the store on `catalog` with what `ledger` holds (accounts, unfinished and current
  /// transactions, subscription records, the clock).
  public init(catalog: Catalog, ledger: any LedgerStore, environment: StoreEnvironment, bus: EventBus = EventBus()) throws(LedgerError) {
    self.ledger = ledger
    self.bus = bus
    let snapshot = try ledger.load()
    ledgerPosition = snapshot.position
    ledgerClock = snapshot.clock
    machine = StoreMachine(catalog: catalog, environment: environment, snapshot: snapshot)
  }

  /// Whether the machine's clock is ahead of the ledger's: time passed (``passTime(to:)``) that
  /// no commit carried yet.
  public var clockIsUnsaved: Bool { clockPassed && machine.now > (ledgerClock ?? .distantPast) }

  /// Time passing in real time (the TUI's tick): moves the clock to `target` and runs what falls
  /// due, as ``advance(to:)``. A step that only moves the clock is committed once the clock is
  /// ``clockSaveInterval`` ahead of the ledger's; until then it stays in memory and the next
  /// commit of any step carries it (so does ``saveClock()``). Anything due commits at once.
  @discardableResult
  public func passTime(to target: Date) throws(EngineError) -> StoreStep {
    try perform(.advance(to: target), deferringClock: true)
  }

  /// Commits the clock if time passed that the ledger does not have yet (at quit, or when
  /// another process acts and should see this one's clock).
  public func saveClock() throws(EngineError) {
    guard clockIsUnsaved else { return }
    let now = machine.now
    do { try ledger.commit([.setClock(now)]) } catch { throw .ledger(error) }
    clockSaved(now)
  }

  /// The ledger holds `clock` now, written by this process.
  func clockSaved(_ clock: Date) {
    ledgerClock = max(ledgerClock ?? clock, clock)
    clockPassed = false
  }

  /// Takes in what other processes committed to the ledger since the last look, commit by commit,
  /// by the path this process's own steps take: each commit goes to the machine through ``StoreMachine/handle(_:)``
  /// (``StoreCommand/absorb(_:)``), to the views as a ``LedgerCommit``, and its events to the
  /// observers and the bus. Front ends call it when the ledger's watcher wakes them; it costs one
  /// indexed query when nothing changed.
  /// - Returns: how many commits came in (a start-over counts as one).
  @discardableResult
  public func refresh() throws(EngineError) -> Int {
    let changes: LedgerChanges
    do { changes = try ledger.changes(since: ledgerPosition) } catch { throw .ledger(error) }
    if changes.startOver {
      try startOver()
      return 1
    }
    for commit in changes.commits {
      var next = machine
      let step = try next.handle(.absorb(commit.changes))
      machine = next
      ledgerPosition = commit.position
      for case .setClock(let date) in commit.changes { ledgerClock = max(ledgerClock ?? date, date) }
      post(LedgerCommit(commit.changes, origin: .otherProcess))
      announce(step)
    }
    ledgerPosition = changes.position
    return changes.commits.count
  }

  /// The log was trimmed behind this process (it slept through a checkpoint): it takes the present
  /// in from the ledger, as a launch reads it, keeping its sheet, timers and controls, and the views
  /// start over from the same present.
  private func startOver() throws(EngineError) {
    let snapshot: LedgerSnapshot
    do { snapshot = try ledger.load() } catch { throw .ledger(error) }
    var next = machine
    try take(.present(snapshot), into: &next)
    machine = next
    ledgerPosition = snapshot.position
    if let clock = snapshot.clock { ledgerClock = max(ledgerClock ?? clock, clock) }
    post(LedgerCommit([], origin: .otherProcess, present: snapshot))
  }

  /// Runs `command` as one step and announces it. Returns the step that was committed.
  @discardableResult
  public func perform(_ command: StoreCommand) throws(EngineError) -> StoreStep {
    try perform(command, deferringClock: false)
  }

  private func perform(_ command: StoreCommand, deferringClock: Bool) throws(EngineError) -> StoreStep {
    switch command {
    case .relaunch:
      // A new process: memory is re-read from the ledger, then it launches; kept only if that commits.
      var fresh = machine
      let snapshot: LedgerSnapshot
      do { snapshot = try ledger.load() } catch { throw .ledger(error) }
      try take(.relaunch(snapshot), into: &fresh)
      let step = try launchStep(from: fresh)
      ledgerPosition = max(ledgerPosition, snapshot.position)
      if let clock = snapshot.clock { ledgerClock = max(ledgerClock ?? clock, clock) }
      return step
    case .storePayment(let product):
      // StoreKit asks the observers first; a "no" means the app adds the payment itself later.
      emit([.shouldAddStorePayment(product)])
      guard observers.allSatisfy({ $0.observer.shouldAddStorePayment(for: product) }) else { return StoreStep() }
      let step = try commit { machine throws(EngineError) in try machine.handle(.buy(Payment(productID: product))) }
      announce(step)
      return step
    default:
      break
    }
    // Rows the command needs from the ledger join a copy of the machine, kept only with the step.
    var base: StoreMachine?
    if command.restores, let account = machine.currentAccount {
      // The store restores from its records, which another process may have added to.
      var copy = machine
      try bringIn(into: &copy) { ledger throws(LedgerError) in try ledger.history(account: account) }
      base = copy
    } else if let id = command.transactionID, machine.transaction(id) == nil {
      var copy = machine
      try bringIn(into: &copy) { ledger throws(LedgerError) in try ledger.transactions([id]) }
      base = copy
    }
    if case .advance(let target) = command {
      // Asked of the machine in place: the TUI advances every second, mostly with nothing due.
      let needed = base?.estimatedRenewals(until: target) ?? machine.estimatedRenewals(until: target)
      if needed > (base?.ids.available ?? machine.ids.available) {
        var copy = base ?? machine
        try reserveIDs(count: UInt64(needed + Self.idBlock), into: &copy)
        base = copy
      }
    }
    let step = try commit(from: base, deferringClock: deferringClock) { machine throws(EngineError) in try machine.handle(command) }
    announce(step)
    return step
  }

  /// Simulates the app starting: unfinished transactions of the signed-in account are delivered
  /// again, and abandoned purchases get their sheet back (see ``StoreMachine/abandonedPurchases()``).
  public func launch() throws(EngineError) {
    try launchStep()
  }

  @discardableResult
  private func launchStep(from base: StoreMachine? = nil) throws(EngineError) -> StoreStep {
    var claims: [PaymentTransaction.ID: PaymentTransaction] = [:]
    let start = base ?? machine
    let session = start.environment.session.id
    let apps = Dictionary(
      DeviceValues.processes(in: deviceValues).filter { $0.role == .app }.map { ($0.session, $0.bundleID) },
      uniquingKeysWith: { first, _ in first })
    for transaction in start.abandonedPurchases(apps: apps) {
      do {
        if let claimed = try ledger.claimPurchase(transaction.id, from: transaction.ownerSession, for: session) {
          claims[claimed.id] = claimed
        }
      } catch {
        // Left for the next launch; nothing was changed.
        emit([.misuse(.ledger(error))])
      }
    }
    let step = try commit(from: start) { machine throws(EngineError) in try machine.handleLaunch(claims: claims) }
    announce(step)
    return step
  }

  /// Works out a step on a copy of the machine, commits it, and keeps the copy only then. When the
  /// machine runs out of reserved ids it gets more from the ledger and the step starts over from the
  /// unchanged machine.
  private func commit(
    from base: StoreMachine? = nil, deferringClock: Bool = false, _ body: (inout StoreMachine) throws(EngineError) -> StoreStep
  ) throws(EngineError) -> StoreStep {
    // One copy per step (the machine is a large value; every copy retains each of its parts).
    var next = base ?? machine
    var reserved: [Range<UInt64>] = []
    var reread: [String: String?] = [:]
    var rereads = 0
    while true {
      let step: StoreStep
      do {
        step = try body(&next)
      } catch .transactionIDsExhausted(let drawn) {
        // Start over from the unchanged machine with enough ids: count what the step needs on an
        // unsigned stand-in (a long advance draws thousands), then reserve that many at once.
        next = base ?? machine
        for range in reserved { try take(.reservedIDs(range), into: &next) }
        var probe = next.probe
        let needed = (try? body(&probe)).map { _ in probe.ids.drawnInStep } ?? drawn * 2
        reserved.append(try reserveIDs(count: UInt64(max(Self.idBlock, needed + Self.idBlock)), into: &next))
        continue
      } catch .purchaseTakenOver(let id, _) {
        try settleTakeover(of: id)
      }
      var committed: [LedgerChange] = []
      if !step.changes.isEmpty {
        committed = step.compactedChanges
        let clockOnly = committed.allSatisfy(\.isClock)
        if deferringClock, clockOnly, let saved = ledgerClock, next.now.timeIntervalSince(saved) < clockSaveInterval {
          // Only time passed: kept in memory; the view still shows it (posted below, as its own).
          machine = next
          clockPassed = true
          post(LedgerCommit(committed, origin: .thisProcess))
          return step
        }
        // Time that passed unsaved rides along with whatever this step writes.
        if clockIsUnsaved, !committed.contains(where: \.isClock) { committed.append(.setClock(next.now)) }
        do { try ledger.commit(committed) } catch {
          if case .takenOver(_, let id, _) = error { try settleTakeover(of: id) }
          // A compare-and-set lost to another process (an offer code's last use, §45): the step
          // starts over from the unchanged machine with the value as the ledger has it now, and
          // decides again (a used-up code is refused; nothing is charged).
          if case .deviceValueChanged(_, let key) = error, rereads < Self.rereadLimit {
            rereads += 1
            let current: String?
            do { current = try ledger.load().deviceValues[key] } catch { throw .ledger(error) }
            reread[key] = current
            next = base ?? machine
            for range in reserved { try take(.reservedIDs(range), into: &next) }
            next.absorb(commit: reread.map { LedgerChange.setDeviceValue(key: $0.key, value: $0.value) })
            continue
          }
          throw .ledger(error)
        }
        for case .setClock(let clock) in committed { clockSaved(clock) }
      }
      machine = next
      // Posted even when empty: a view tells this step's changes from an earlier step's by it.
      post(LedgerCommit(committed, origin: .thisProcess))
      return step
    }
  }

  /// After an answer to the sheet of `id` found the purchase taken over by another process (the
  /// ledger refused the batch, or the change feed already showed it): the step is dropped and
  /// nothing of it announced; a step of its own closes the sheet and takes the purchase in as the
  /// ledger has it now. Always throws ``EngineError/purchaseTakenOver(_:owner:)`` for the front end.
  private func settleTakeover(of id: PaymentTransaction.ID) throws(EngineError) -> Never {
    let current: PaymentTransaction?
    do { current = try ledger.transactions([id]).first } catch { throw .ledger(error) }
    // The other process's answer is a committed change the views have not seen yet.
    if let current { post(LedgerCommit([.putTransaction(current)], origin: .otherProcess)) }
    let step = try commit { machine throws(EngineError) in try machine.handleTakeover(of: id, current: current) }
    announce(step)
    throw .purchaseTakenOver(id, owner: current.flatMap { $0.state == .purchasing && !$0.isFinished ? $0.ownerSession : nil })
  }

  @discardableResult
  private func reserveIDs(count: UInt64, into target: inout StoreMachine) throws(EngineError) -> Range<UInt64> {
    let first: UInt64
    do { first = try ledger.reserveTransactionIDs(count: count, atLeast: target.ids.floor) } catch { throw .ledger(error) }
    try take(.reservedIDs(first..<(first + count)), into: &target)
    return first..<(first + count)
  }

  /// Hands the machine what was read from the ledger, through ``StoreMachine/handle(_:)`` like
  /// every other change of it (the step writes nothing).
  private func take(_ read: LedgerRead, into target: inout StoreMachine) throws(EngineError) {
    _ = try target.handle(.read(read))
  }

  /// Ids are reserved in blocks of at least this many, consecutive, so one process's stay predictable.
  static let idBlock = 64

  /// How many device values a step reads again after losing compare-and-sets before it gives up
  /// (an offer code's redemption expects two).
  static let rereadLimit = 8

  /// Takes rows from the ledger into the working set before a step that needs them.
  private func bringIn(
    into target: inout StoreMachine, _ read: (any LedgerStore) throws(LedgerError) -> [PaymentTransaction]
  ) throws(EngineError) {
    let rows: [PaymentTransaction]
    do { rows = try read(ledger) } catch { throw .ledger(error) }
    try take(.rows(rows), into: &target)
  }

  // MARK: Observers and announcing

  /// Adds an observer; it hears every later callback, after those added before it.
  public func add(_ observer: any PaymentTransactionObserver) {
    let id = ObjectIdentifier(observer)
    guard !observers.contains(where: { $0.id == id }) else { return }
    observers.append((id, observer))
  }

  public func remove(_ observer: any PaymentTransactionObserver) {
    observers.removeAll { $0.id == ObjectIdentifier(observer) }
  }

  /// Starts a products request (`SKProductsRequest`); `completion` gets the response or the error.
  /// - Returns: the request's number, which its events carry.
  @discardableResult
  public func requestProducts(
    _ identifiers: [String], completion: ((Result<ProductsResponse, StoreKitError>) -> Void)? = nil
  ) throws(EngineError) -> Int {
    var request = 0
    let step = try commit { machine throws(EngineError) in
      let step = try machine.handle(.requestProducts(identifiers))
      request = step.productsRequest ?? 0
      return step
    }
    if let completion { productCallbacks[request] = completion }
    announce(step)
    return request
  }

  private func announce(_ step: StoreStep) {
    emit(step.events)
    for event in step.events {
      switch event {
      case .productsResponse(let request, let products, let invalid):
        productCallbacks.removeValue(forKey: request)?(.success(ProductsResponse(
          products: products.compactMap { machine.catalog.product($0) }, invalidProductIdentifiers: invalid)))
      case .productsRequestFailed(let request, let error):
        productCallbacks.removeValue(forKey: request)?(.failure(error))
      default: break
      }
    }
  }

  /// Tells the views what is now durable; they apply it to their read models before the events.
  private func post(_ commit: LedgerCommit) {
    bus.post(commit)
  }

  /// Tells observers, then the bus, about each event in order. Observers (the app) hear only the
  /// signed-in account's transactions (N6); the bus (the tester's views) hears everything.
  private func emit(_ events: [StoreEvent]) {
    let ordered = observers.map(\.observer)
    let account = machine.currentAccount
    for event in events {
      for observer in ordered {
        switch event.heard(by: account) {
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
}

extension LedgerChange {
  /// Whether this change sets the clock.
  var isClock: Bool { if case .setClock = self { true } else { false } }
}
