import Foundation
import NcursesTerminal
import SimulatedApp
import StoreEngine
import StoreScenario
import StoreServer
import StoreTUI
import StorefrontLive

/// `storefront [--catalog PATH] …` with no subcommand: the interactive ncurses storefront.
enum InteractiveCommand {
  static let descriptor = CommandDescriptor(
    path: [],
    summary: "Start the interactive storefront, the default.",
    discussion: """
      Opens the keyboard-driven storefront on the catalog (default: the built-in one) in this \
      terminal: a product table with a Buy button per row, Restore Purchases, the App Store \
      purchase and sign-in sheets, and panes for transactions, sandbox settings and the observer \
      log. Press ? inside for every key. Needs a terminal on standard input and output; for \
      scripts and CI use `storefront run SCRIPT`. With --serve the same process also answers the App \
      Store Server API as `storefront serve` does, from the same data directory, and a Server pane (5) \
      lists each request, its decoded token and its response. --app-finishes sets when the simulated \
      app finishes transactions (also a Settings row); in after-server mode its server calls run on \
      a worker and each answer is a Log line. The virtual clock is the ledger's: on a data directory \
      another front end (run, serve) used, it continues from where that one left it and moves in \
      real time, at the time rate, from there; a fresh ledger starts at the wall clock (or at \
      --clock-start / $STOREFRONT_CLOCK_START).
      """,
    options: [
      OptionSpec("--regenerate-ca", help: "Create a new sandbox CA when the old one is damaged (invalidates old signatures)."),
      OptionSpec(
        "--serve", optionalValue: "addr:port",
        help: "Also serve the App Store Server API, as `storefront serve` does (default \(ListenAddress.default); port 0 picks a free one); the Server pane lists the requests."),
      AppFinishesOption.spec,
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    if let extra = invocation.operands.first {
      throw invocation.usageError("Unknown command '\(extra)'. Run 'storefront --help' for the list of commands.", for: descriptor)
    }
    var serveAddress: ListenAddress?
    if invocation.arguments.flag("--serve") {
      let text = invocation.arguments.value("--serve")
      guard let address = text == nil ? ListenAddress.default : text.flatMap(ListenAddress.init(parsing:)) else {
        throw invocation.usageError(
          "The value '\(text ?? "")' is invalid for '--serve [<addr:port>]': use an IP address and a port, such as 127.0.0.1:8808 or [::1]:0.",
          for: descriptor)
      }
      serveAddress = address
    }
    let finishMode: AppFinishMode
    switch AppFinishesOption.mode(invocation, for: descriptor) {
    case .success(let mode): finishMode = mode
    case .failure(let failure): throw failure
    }
    do {
      // The console decides first, so in-process callers (tests) never reach the real terminal.
      guard invocation.io.isInteractiveTerminal else { throw TerminalError.notATerminal(stream: .standardInput) }
      try NcursesTerminal.requireInteractive()
    } catch {
      throw CLIFailure("\(error)", .unavailable)
    }
    HeapTrim.mapLargeBlocks()
    let catalog: Catalog
    let catalogHash: Int?
    switch CatalogSource.load(invocation.global.catalogPath, hashing: true) {
    case .success(let loaded):
      loaded.reportWarnings(io: invocation.io)
      catalog = loaded.catalog
      catalogHash = loaded.contentHash
    case .failure(let error): throw CatalogSource.failure(error, io: invocation.io)
    }
    // Decoding a large catalog frees most of what it allocated in small pieces, which glibc keeps
    // resident unless asked: given back now, the TUI's peak is its catalog, not the decoding.
    HeapTrim.giveBack()
    let store: LiveStore
    // The run loop that shows the ledger's connection in the header comes after the store.
    let ledgerConnection = Locked<(@Sendable (LedgerConnectionState) -> Void)?>(nil)
    // On a fresh ledger the storefront starts at the wall clock; a ledger's own clock wins.
    let clock = try ClockChoice.resolve(invocation.global, environment: invocation.environment, default: .now)
    store = try LiveStore.open(
      catalog: catalog, global: invocation.global, environment: invocation.environment, clock: clock,
      regenerateCA: invocation.arguments.flag("--regenerate-ca"),
      ledgerConnection: .interactive(onChange: { state in ledgerConnection.withLock { $0 }?(state) }))
    if let account = invocation.global.account, store.queue.currentAccount != account {
      do { try store.queue.signIn(account) } catch {
        throw CLIFailure(
          "cannot sign in as '\(account)': \(error). Sign in from inside with i.", CLIFailure.exitCode(for: error, otherwise: .failure))
      }
    }
    let snapshot: AccountSnapshot
    do {
      snapshot = try AccountSnapshot(queue: store.queue)
    } catch {
      throw CLIFailure(error)
    }
    let terminal = MainActor.assumeIsolated { NcursesTerminal() }
    let loop = MainActor.assumeIsolated { TerminalRunLoop<Wake>(terminal: terminal, tick: .seconds(1)) }
    ledgerConnection.withLock { $0 = { state in loop.post(.ledgerConnection(state)) } }
    var server: ServeSession?
    if let serveAddress {
      let keys = try invocation.keyStore()
      // Started before the terminal is taken over, so a failure reads as serve's would. Requests are
      // handed to the main queue as engine events are; the loop delivers them once it runs.
      do throws(ServeSession.Failure) {
        server = try ServeSession.start(
          catalog: catalog, global: invocation.global, processEnvironment: invocation.environment, keys: keys,
          configuration: HTTPServerConfiguration(address: serveAddress), environment: "Sandbox",
          bundleID: invocation.global.bundleID ?? LiveStore.defaultBundleID, clock: clock.followed, recordsDetails: true,
          log: { entry in loop.post(.serverRequest(ServerRequest(entry))) })
      } catch {
        if case .listen(let failure) = error {
          throw CLIFailure("\(failure.description). Choose another with --serve ADDR:PORT (port 0 picks a free one).", .unavailable)
        }
        throw ServeCommand.failure(error)
      }
    }
    defer { server?.stop() }
    if let bound = server?.boundAddress, !bound.isLoopback {
      // Seen after the TUI quits (the alternate screen hides it meanwhile), as serve says it on start.
      invocation.io.errorLine("Warning: served on \(bound), which other machines can reach; anyone with a registered key can read this ledger.")
    }
    let url = server?.url
    // main.swift calls us synchronously on the main thread; the TUI is main-actor confined.
    let catalogPath = invocation.global.catalogPath.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    // Retention Messaging's configuration, read by the cancel flow's worker over a connection of its own.
    let retentionMessaging = try store.retentionMessaging()
    let result = MainActor.assumeIsolated {
      runTerminal(
        loop: loop, store: store, retentionMessaging: retentionMessaging, snapshot: snapshot, serverURL: url,
        finishMode: finishMode, catalogPath: catalogPath, catalogHash: catalogHash)
    }
    switch result {
    case .success(let code): return ExitCode(rawValue: code)
    case .failure(let error): throw CLIFailure("\(error)", .unavailable)
    }
  }

  /// What reaches the run loop from other threads: the engine spoke (redraw), the server answered a
  /// request, or another client committed to the shared ledger.
  enum Wake: Sendable {
    case engine
    case ledger
    case serverRequest(ServerRequest)
    case ledgerConnection(LedgerConnectionState)
    case appServerAnswered(AppServerAnswer)
    /// A cancel flow's realtime call ended and its sheet is decided.
    case retentionAnswered(RetentionFlowResult)
    /// The Catalog pane's file was written, replaced or removed.
    case catalogFile
  }

  @MainActor
  private static func runTerminal(
    loop: TerminalRunLoop<Wake>, store: LiveStore, retentionMessaging: RetentionMessagingStore, snapshot: AccountSnapshot, serverURL: String?, finishMode: AppFinishMode,
    catalogPath: String?, catalogHash: Int?
  ) -> Result<Int32, TerminalError> {
    let runtime = AppRuntime(queue: store.queue, snapshot: snapshot, size: loop.terminal.size, executor: .queue(.main))
    if let serverURL { runtime.send(.serverListening(url: serverURL)) }
    // The Catalog pane edits the file the store sells from (issue 26).
    runtime.openCatalog(path: catalogPath, seed: UInt64.random(in: .min ... .max), contentHash: catalogHash)
    // Set before the launch below, so the redelivered transactions meet the app's policy.
    runtime.send(.appFinishModeSet(finishMode))
    let worker = AppServerWorker()
    let receipt = AppReceiptSource.reader(for: store)
    runtime.appServer = { request in
      // The receipt is read here, on the main thread, where the ledger is used; only HTTP goes to the worker.
      var request = request
      let note = request.attachReceipt(receipt)
      worker.call(request) { answer in
        var answer = answer
        if let note { answer.error = answer.error.map { "\($0); \(note)" } ?? note }
        loop.post(.appServerAnswered(answer))
      }
    }
    // The cancel flow's realtime call, on a serial worker of its own (one libcurl handle).
    let retention = RetentionFlowClient(
      store: retentionMessaging, signer: store.authority.signer(environment: store.queue.signingEnvironment ?? "Sandbox"))
    let retentionQueue = DispatchQueue(label: "storefront.retention")
    let queue = store.queue
    runtime.retentionFlow = { request in
      // The catalog is read here, on the main thread; only HTTP goes to the worker.
      let catalog = queue.catalog
      retentionQueue.async { loop.post(.retentionAnswered(retention.run(request, catalog: catalog))) }
    }
    runtime.serverFaults = ServerFaultSettings.access(directory: store.directory)
    runtime.receipts = ReceiptText.access(store: store, bundleID: store.queue.bundleID)
    // Engine events reach the runtime on the main queue; this wakes the loop to draw them after.
    let wake = store.queue.bus.subscribe(StoreEvent.self, on: .queue(.main)) { _ in MainActor.assumeIsolated { loop.requestRender() } }
    // A commit with no event (another process's, read by a refresh) still changes rows to draw.
    let commitWake = store.queue.bus.subscribe(LedgerCommit.self, on: .queue(.main)) { commit in
      if !commit.changes.isEmpty { MainActor.assumeIsolated { loop.requestRender() } }
    }
    // Another machine's commit to a shared ledger refreshes the rows at once, not at the next tick.
    let ledgerWake = LedgerWake(store: store) { loop.post(.ledger) }
    runtime.ledgerWatched = ledgerWake != nil
    // Another process's edit of the catalog file shows in the Catalog pane when it is written.
    let catalogWatch = runtime.catalogFilePath.flatMap { path in FileWatch(path: path) { loop.post(.catalogFile) } }
    defer {
      runtime.unregisterAsStorefront()
      ledgerWake?.stop()
      catalogWatch?.stop()
      wake.cancel()
      commitWake.cancel()
      runtime.stop()
    }
    // The device's App Store for apps attached to this store (the StoreKit library): registered
    // before the first frame, so an app started once the screen shows finds it.
    runtime.registerAsStorefront(catalogPath: catalogPath)
    var started = false
    let outcome: TerminalRunLoop<Wake>.Outcome
    do {
      outcome = try loop.run(
        handle: { event in
          if !started {
            started = true
            // Like an app at launch: unfinished transactions are delivered to the observers again.
            // A failure is the runtime's to show, as any refused command's.
            runtime.launch()
          }
          switch event {
          case .key(let key): runtime.send(.key(key))
          case .resize(let size): runtime.send(.resized(size))
          case .tick(let date): runtime.tick(now: date)
          case .external(.serverRequest(let request)): runtime.send(.serverRequest(request))
          case .external(.appServerAnswered(let answer)): runtime.send(.appServerAnswered(answer))
          case .external(.retentionAnswered(let result)): runtime.retentionFinished(result)
          case .external(.ledgerConnection(let state)): runtime.send(.ledgerConnectionChanged(state))
          case .external(.engine): break
          case .external(.catalogFile): runtime.catalogFileChanged()
          // Another process committed: its commits come in now, not at the next tick. A wake-up by
          // this process's own commit brings nothing and draws nothing.
          case .external(.ledger): if !runtime.ledgerChanged() { return runtime.wantsQuit ? .quit(exitCode: ExitCode.success.rawValue) : .unchanged }
          }
          return runtime.wantsQuit ? .quit(exitCode: ExitCode.success.rawValue) : .continue
        },
        render: { size in
          if runtime.state.size != size { runtime.send(.resized(size)) }
          return runtime.render()
        })
    } catch {
      return .failure(error)
    }
    return .success(outcome.exitCode)
  }
}
