import Foundation
import SimulatedApp
import StoreEngine

/// The one impure piece of the TUI: owns the engine and the state, runs the reducer's commands
/// against the engine and feeds the engine's events back in as actions.
///
/// Main-thread confined (the main actor); no ncurses. Engine events reach it through the bus on
/// the executor the caller picks: the real app passes `.queue(.main)`, tests pass `.immediate`.
/// Actions that arrive while one is being handled (an engine event posted while a command runs)
/// wait in an inbox and are handled in order after it, so the reducer never runs re-entrantly.
///
/// ```swift
/// let runtime = AppRuntime(queue: queue, size: terminal.size, executor: .queue(.main))
/// runtime.send(.key(.enter))          // opens the purchase sheet
/// terminal.present(runtime.render())
/// ```
@MainActor
public final class AppRuntime {
  /// The engine.
  public let queue: PaymentQueue
  /// What is on screen.
  public private(set) var state: AppState
  /// Set by the `.quit` command; the run loop ends when it sees it.
  public internal(set) var wantsQuit = false
  /// Relative export paths resolve here.
  public let exportDirectory: URL
  /// Prices formatted for earlier frames, kept for the runtime's lifetime (``render()`` uses it).
  public let prices = PriceMemo()

  /// This storefront's entry among the store's attached processes, once registered.
  var storefrontEntry: AttachedProcess?
  /// The catalog file the Catalog pane edits, as last read or saved; nil for the built-in catalog
  /// and until the pane first shows (``pendingCatalogHash``).
  var catalogFile: CatalogFile?
  /// The path of the Catalog pane's file; nil for the built-in catalog.
  var catalogPath: String?
  /// The hash of the bytes the store sells from, while the file is not read yet.
  var pendingCatalogHash: Int?
  /// The file's modification date and size when last looked at, so a wake reads it only after a change.
  var catalogStamp: (Date?, Int?)?
  /// Attached apps' sheets this storefront answered: not shown again.
  var settledSheets: Set<PaymentTransaction.ID> = []
  /// How many lines of each attached app's callback log the Log pane shows already, by session.
  var appLogSeen: [String: Int] = [:]
  /// Attached apps' signed-out purchases this storefront signed the device in for.
  var signedInSheets: Set<PaymentTransaction.ID> = []
  /// The attached app's sheet on screen, if any.
  var shownAttachedSheet: PaymentTransaction.ID?
  /// The session of the attached app whose offer-code sheet is on screen, if any.
  var shownCodeSheet: String?

  private var inbox: [Inbound] = []
  private var isHandling = false
  private var subscription: Subscription?
  private var commitSubscription: Subscription?
  private var lastTick: Date?
  /// Real seconds not yet moved onto the virtual clock (it moves in whole seconds).
  private var pendingSeconds: TimeInterval = 0
  /// Ticks since attached apps were last attended to: they are attended when a commit comes in,
  /// after a command, and every ``attendEvery`` ticks for an app that quit without a word.
  var ticksSinceAttend = 0
  static let attendEvery = 5
  /// Set by the front end when the ledger's watcher wakes this screen on another process's commit
  /// (``ledgerChanged()``): the tick then reads the change feed only every ``refreshEvery`` ticks,
  /// in case a wake went missing. Without a watcher (tests, no inotify) every tick reads it.
  public var ledgerWatched = false
  private var ticksSinceRefresh = 0
  static let refreshEvery = 30
  /// Another process acted (committed more than its clock): the next tick saves this screen's
  /// clock, so that process holds it too (after, not before, its commit is drawn).
  private var clockWanted = false
  /// Starts the simulated app's call to its server on a worker and returns at once; the answer must
  /// come back on the main thread as ``AppAction/appServerAnswered(_:)``. Nil: after-server mode
  /// tells the tester no client is wired.
  public var appServer: ((AppServerRequest) -> Void)?
  /// The data directory's server fault (Settings); nil without a data directory.
  public var serverFaults: ServerFaultAccess? {
    didSet { send(.serverFaultRead(serverFaults?.read())) }
  }
  /// The app receipt of an account (Transactions pane `c`, `C`); nil without a data directory.
  public var receipts: ReceiptAccess?

  private enum Inbound {
    case action(AppAction)
    case event(StoreEvent)
    case commit(LedgerCommit)
  }

  /// - Parameters:
  ///   - queue: the engine; the runtime subscribes to its bus.
  ///   - size: the terminal size.
  ///   - executor: where bus events are delivered; must run on the main thread.
  ///   - storeName: the header's name.
  ///   - exportDirectory: where relative JWS export paths go (default: the current directory).
  ///   - logCapacity: observer log lines kept.
  public convenience init(
    queue: PaymentQueue, size: Size, executor: EventBus.Executor = .immediate, storeName: String = "Storefront",
    exportDirectory: URL? = nil, logCapacity: Int = 1000
  ) throws(LedgerError) {
    self.init(
      queue: queue, snapshot: try AccountSnapshot(queue: queue), size: size, executor: executor, storeName: storeName,
      exportDirectory: exportDirectory, logCapacity: logCapacity)
  }

  /// The same, with the account's view already read (`snapshot`).
  public init(
    queue: PaymentQueue, snapshot: AccountSnapshot, size: Size, executor: EventBus.Executor = .immediate,
    storeName: String = "Storefront", exportDirectory: URL? = nil, logCapacity: Int = 1000
  ) {
    self.queue = queue
    self.exportDirectory = exportDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    self.state = AppState(
      catalog: queue.catalog, size: size, snapshot: snapshot, storeName: storeName,
      logCapacity: logCapacity)
    state.notificationURL = queue.notificationURLs[queue.signingEnvironment ?? "Sandbox"]
    state.setAppBundleID(queue.bundleID)
    // Subscribed first and on the same executor: a step's commit reaches the state before its events.
    commitSubscription = queue.bus.subscribe(LedgerCommit.self, on: executor) { [weak self] commit in
      MainActor.assumeIsolated { self?.enqueue(.commit(commit)) }
    }
    subscription = queue.bus.subscribe(StoreEvent.self, on: executor) { [weak self] event in
      // Events are drawn on the main thread only; a bus executor that is not main is a wiring bug.
      MainActor.assumeIsolated { self?.receive(event) }
    }
  }

  /// Saves the clock (time passed since its last save) and stops listening to the bus.
  public func stop() {
    try? queue.saveClock()
    subscription?.cancel()
    subscription = nil
    commitSubscription?.cancel()
    commitSubscription = nil
  }

  /// Handles an action: reduces it, runs the commands, then handles what they caused.
  public func send(_ action: AppAction) {
    enqueue(.action(action))
  }

  /// The current frame.
  public func render() -> ScreenBuffer {
    StoreTUI.render(state, prices: prices)
  }

  /// A real-time tick: the virtual clock moves by the real time elapsed since the last tick (in
  /// whole seconds; the time rate already scales subscription periods inside the engine), then the
  /// spinner and notices advance.
  /// How far under a whole second of elapsed time still counts as that second.
  static let tickTolerance: TimeInterval = 0.05

  public func tick(now: Date) {
    if let lastTick {
      pendingSeconds += max(0, now.timeIntervalSince(lastTick))
    }
    lastTick = now
    // The fallback for the ledger's watcher: another process's commits come in here at the latest.
    var commits = 0
    ticksSinceRefresh += 1
    if !ledgerWatched || ticksSinceRefresh >= Self.refreshEvery {
      ticksSinceRefresh = 0
      do {
        commits = try queue.refresh()
      } catch {
        send(.commandFailed(.relaunch, message: TUIErrorText.message(for: error)))
      }
    }
    readNotifications()
    ticksSinceAttend += 1
    // Only an app on the header's list (or its sheet) can quit without a word; a new one commits.
    let attendsApps = !state.attachedApps.isEmpty || shownAttachedSheet != nil
    if commits > 0 || (attendsApps && ticksSinceAttend >= Self.attendEvery) { attendAttachedApps() }
    // A timer tick lands a hair under a whole second after the last one as often as over it: with
    // no tolerance the clock stood still for a tick and then jumped two seconds.
    let whole = (pendingSeconds + Self.tickTolerance).rounded(.down)
    if whole >= 1 {
      pendingSeconds = max(0, pendingSeconds - whole)
      // Time passing is written to the ledger when something falls due, with this process's next
      // commit, or every `clockSaveInterval` seconds; not every tick (DECISIONS §41).
      do {
        try queue.passTime(to: queue.now.addingTimeInterval(whole))
      } catch {
        send(.commandFailed(.advance(whole), message: TUIErrorText.message(for: error)))
      }
    }
    if clockWanted {
      clockWanted = false
      do { try queue.saveClock() } catch { send(.commandFailed(.advance(0), message: TUIErrorText.message(for: error))) }
    }
    send(.tick(now))
  }

  /// The ledger's watcher woke this screen: another process (or this one) committed. Takes the
  /// other processes' commits in and attends to attached apps; returns whether anything came in
  /// (else nothing on screen changed).
  public func ledgerChanged() -> Bool {
    let commits: Int
    do {
      commits = try queue.refresh()
    } catch {
      send(.commandFailed(.relaunch, message: TUIErrorText.message(for: error)))
      return true
    }
    guard commits > 0 else { return false }
    readNotifications()
    attendAttachedApps()
    return true
  }


  private func receive(_ event: StoreEvent) {
    enqueue(.event(event))
  }

  private func enqueue(_ item: Inbound) {
    inbox.append(item)
    guard !isHandling else { return }
    isHandling = true
    defer { isHandling = false }
    while !inbox.isEmpty || state.needsHistoryWindow || (pendingCatalogHash != nil && state.focus == .catalog) {
      guard !inbox.isEmpty else {
        if pendingCatalogHash != nil && state.focus == .catalog {
          readPendingCatalog()
          continue
        }
        // The pane's window is read once the actions are handled, not per commit.
        readHistoryWindow()
        continue
      }
      let next = inbox.removeFirst()
      switch next {
      case .action(let action):
        for command in reduce(into: &state, action: action) { run(command) }
        readOfferCodesForSheet()
      case .event(let event):
        handle(event)
      case .commit(let commit):
        if commit.present != nil {
          // This process fell behind the trimmed commit log: the screen starts over from the present.
          do { apply(.accountLoaded(try AccountSnapshot(queue: queue))) } catch {
            apply(.commandFailed(.relaunch, message: TUIErrorText.message(for: EngineError.ledger(error))))
          }
          apply(.notificationURLRead(queue.notificationURLs[notificationEnvironment]))
          continue
        }
        apply(.committed(commit))
        for change in commit.changes {
          // The header's notification URL comes with the commit that sets it, from any process.
          if case .setNotificationURL(let environment, let url) = change, environment == notificationEnvironment {
            apply(.notificationURLRead(url))
          }
          if case .setClock = change {} else if commit.origin == .otherProcess { clockWanted = true }
        }
        // Before the step's events: a consumable's row shows the ledger's count when they arrive.
        if touchesConsumables(commit) { countConsumables() }
      }
    }
  }

  /// Whether `commit` may change the signed-in account's consumable counts.
  private func touchesConsumables(_ commit: LedgerCommit) -> Bool {
    commit.changes.contains { change in
      switch change {
      case .putTransaction(let transaction), .finishTransaction(let transaction): transaction.productKind == .consumable && transaction.account == state.account
      case .clearHistory, .deleteTransaction, .setCurrentAccount: true
      default: false
      }
    }
  }

  private func countConsumables() {
    guard let account = state.account else { return apply(.consumablesCounted([:])) }
    do {
      apply(.consumablesCounted(try queue.ledger.consumableUnits(account: account)))
    } catch {
      apply(.commandFailed(.relaunch, message: TUIErrorText.message(for: EngineError.ledger(error))))
    }
  }

  /// Reads the Transactions pane's window now, on screen or not (tests compare a pane not shown).
  package func readHistoryWindowNow() {
    readHistoryWindow()
  }

  /// Reads the Transactions pane's window around its scroll position (a count and one page).
  private func readHistoryWindow() {
    do {
      let window = try HistoryWindow.read(
        account: state.account, around: state.scroll(of: .transactions).firstRow, from: queue.ledger)
      apply(.historyRead(window))
    } catch {
      // Kept as it is until the next change or scroll: one notice, not a loop of reads.
      var window = state.history
      let wanted = HistoryWindow.range(around: state.scroll(of: .transactions).firstRow)
      window.offset = wanted.lowerBound
      window.limit = wanted.count
      window.rows = []
      window.isStale = false
      apply(.historyRead(window))
      apply(.commandFailed(.relaunch, message: TUIErrorText.message(for: EngineError.ledger(error))))
    }
  }

  /// An engine event. The rows were brought up to date by the commit before it; the runtime reads
  /// the engine again only when another account signs in (its history is a new view, read once).
  private func handle(_ event: StoreEvent) {
    apply(.engine(event))
    if case .accountChanged = event {
      do {
        apply(.accountLoaded(try AccountSnapshot(queue: queue)))
      } catch {
        apply(.commandFailed(.signIn(name: queue.currentAccount ?? "", password: ""), message: error.description))
      }
    }
  }

  func apply(_ action: AppAction) {
    for command in reduce(into: &state, action: action) { run(command) }
  }
}
