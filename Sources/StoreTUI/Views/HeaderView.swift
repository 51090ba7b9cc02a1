import StoreEngine

/// The top rows: who and where (store, account, storefront, locale, environment), then time.
enum HeaderView {
  static let spinnerFrames: [Character] = ["|", "/", "-", "\\"]

  static func title(_ state: AppState, in canvas: inout Canvas) {
    let style = Style([.reverse, .bold])
    canvas.fill(style: style)
    let account = state.account ?? "Not signed in"
    var text = " \(state.storeName)   \(account)   \(state.controls.storefront) · \(state.controls.locale)   "
    // Serving, the URL must fit 80 columns, so the environment loses its label.
    text += state.server.map { "Sandbox   Server \($0.url)" } ?? "Environment: Sandbox"
    canvas.text(text, x: 0, y: 0, style: style)
  }

  static func info(_ state: AppState, in canvas: inout Canvas) {
    let rate = TimeRate.preset(rawValue: state.controls.timeRate) ?? .realTime
    var clock = " Clock \(DateText.full(state.clock))   Time rate: \(rate.name)"
    let ledger = ledgerText(state.ledgerConnection)
    // The ledger's state must be read whole, so the time rate gives way on a narrow terminal.
    if let ledger, clock.displayWidth + ledger.displayWidth + 2 > canvas.size.width { clock = " Clock \(DateText.full(state.clock))" }
    canvas.text(clock, x: 0, y: 0, style: .muted)
    // Over the purchase spinner: while the ledger is away no step commits.
    if let ledger {
      let width = min(ledger.displayWidth, max(0, canvas.size.width - clock.displayWidth - 2))
      canvas.text(ledger, x: canvas.size.width - width - 1, y: 0, width: width, style: .error)
      return
    }
    guard state.isBusy else {
      // The apps attached to this store, when nothing is in flight.
      guard let apps = attachedText(state.attachedApps) else { return }
      let width = min(apps.displayWidth, max(0, canvas.size.width - clock.displayWidth - 2))
      canvas.text(apps, x: canvas.size.width - width - 1, y: 0, width: width, style: .muted)
      return
    }
    let frame = spinnerFrames[state.spinnerFrame % spinnerFrames.count]
    let activity: String
    if let id = state.inFlight.min(), let transaction = state.transaction(id) {
      activity = "\(frame) Purchasing \(state.displayName(of: transaction.productID))…"
    } else if !state.inFlight.isEmpty {
      activity = "\(frame) Purchasing…"
    } else {
      activity = "\(frame) Restoring purchases…"
    }
    let width = min(activity.displayWidth, max(0, canvas.size.width - clock.displayWidth - 2))
    canvas.text(activity, x: canvas.size.width - width - 1, y: 0, width: width, style: .warning)
  }
}

extension HeaderView {
  /// "App: com.example.app (pid 4242, since 09:56:12)", or the first one and how many more; nil
  /// when no app is attached. Times are the wall clock's (UTC), not the virtual one.
  static func attachedText(_ apps: [AttachedProcess]) -> String? {
    guard let first = apps.first else { return nil }
    let named = "\(first.bundleID) (pid \(first.pid), since \(ServerView.time(first.since).prefix(8)))"
    return apps.count == 1 ? "App: \(named)" : "Apps: \(named) +\(apps.count - 1)"
  }

  /// "ledger: reconnecting (attempt N)…" while the shared ledger is away; nil when connected.
  static func ledgerText(_ connection: LedgerConnectionState) -> String? {
    switch connection {
    case .connected: nil
    case .reconnecting(let attempt, _, _): "ledger: reconnecting (attempt \(attempt))…"
    case .gaveUp(let attempts, _): "ledger: unreachable (\(attempts) attempts)"
    }
  }
}

/// The pane tabs: the focused one in reverse video.
enum TabsView {
  static func draw(_ state: AppState, layout: AppLayout, in canvas: inout Canvas) {
    for (pane, rect) in layout.tabRects {
      let focused = pane == state.focus
      canvas.text(AppLayout.tabLabel(pane), x: rect.x, y: rect.y, style: focused ? Style([.reverse, .bold]) : .plain)
    }
    let queued = state.unfinishedTransactions.count
    let summary = queued == 0 ? "" : "\(queued) unfinished "
    canvas.text(summary, x: layout.tabs.maxX - summary.displayWidth, y: layout.tabs.y, style: .warning)
  }
}

/// The bottom rows: the passing notice, and the key hints.
enum StatusLineView {
  static func notice(_ state: AppState, in canvas: inout Canvas) {
    guard let notice = state.notice else { return }
    let style: Style =
      switch notice.kind {
      case .info: .accent
      case .success: .success
      case .error: .error
      }
    canvas.text(" " + notice.text, x: 0, y: 0, style: style)
  }

  /// The hint of the sheet that is up, else of the focused pane (both from ``KeyBindings``).
  static func hints(_ state: AppState, in canvas: inout Canvas) {
    canvas.fill(style: .reverse)
    canvas.text(" " + KeyBindings.hint(for: KeyScope(state)), x: 0, y: 0, style: .reverse)
  }
}
