import Foundation
import StoreEngine

/// Applies one action to the state and returns the work to do. Pure: no engine, no clock, no I/O.
///
/// ```swift
/// var state = AppState(catalog: catalog, size: Size(width: 80, height: 24), snapshot: snapshot)
/// let commands = reduce(into: &state, action: .key(.enter))   // [.buy("com.example.coins100")]
/// ```
public func reduce(into state: inout AppState, action: AppAction) -> [AppCommand] {
  switch action {
  case .catalogLoaded(let bytes, let catalog):
    AppReducer.catalogLoaded(bytes, catalog, &state)
    return []
  case .catalogOpened(let editor):
    state.catalogEditor = editor
    return []
  case .catalogChangedOnDisk(let changed):
    AppReducer.catalogChangedOnDisk(changed, &state)
    return []
  case .key(let key):
    let commands = AppReducer.key(key, &state)
    // The StoreKit 2 view must know which purchases the app started (they return to purchase()).
    for command in commands {
      if let storeCommand = command.storeCommand(now: state.clock) { state.storeKit2View.willPerform(storeCommand) }
    }
    return commands
  case .resized(let size):
    state.size = size
    AppReducer.clampAll(&state)
    return []
  case .tick(let date):
    AppReducer.tick(date, &state)
    return []
  case .committed(let commit):
    AppReducer.committed(commit, &state)
    return []
  case .engine(let event):
    return AppReducer.engine(event, &state) + AppReducer.appReacts(to: event, &state)
  case .appFinishModeSet(let mode):
    AppReducer.setAppFinishMode(mode, &state)
    AppReducer.explainUnfinished(&state)
    return []
  case .appServerAnswered(let answer):
    return AppReducer.appServerAnswered(answer, &state)
  case .serverListening(let url):
    state.server = ServerLog(url: url)
    return []
  case .ledgerConnectionChanged(let connection):
    state.ledgerConnection = connection
    return []
  case .serverRequest(let request):
    AppReducer.serverRequest(request, &state)
    return []
  case .notificationsRead(let entries):
    AppReducer.notificationsRead(entries, &state)
    return []
  case .notificationURLRead(let url):
    state.notificationURL = url
    return []
  case .serverFaultRead(let fault):
    state.serverFault = fault
    return []
  case .receiptRead(let title, let lines):
    state.sheet = .request(RequestSheet(number: 0, title: title, lines: lines))
    return []
  case .consumablesCounted(let units):
    state.count(units)
    return []
  case .attachedAppsRead(let apps):
    state.attachedApps = apps
    return []
  case .attachedSheetPresented(let sheet):
    if state.sheet == nil {
      state.sheet = .purchase(sheet)
      state.notice = Notice("\(sheet.app ?? "An app") asks to buy \(sheet.productName).")
    }
    return []
  case .attachedCodeSheetPresented(let session, let app):
    if state.sheet == nil {
      state.sheet = .notificationURL(URLSheet(url: "", purpose: .attachedOfferCode(session: session, app: app)))
      state.notice = Notice("\(app) asks for an offer code.")
    }
    return []
  case .offerCodesRead(let lines):
    if case .notificationURL(var sheet) = state.sheet, sheet.purpose.isOfferCode {
      sheet.codes = lines
      state.sheet = .notificationURL(sheet)
    }
    return []
  case .attachedCodeSheetWithdrawn:
    if case .notificationURL(let sheet) = state.sheet, case .attachedOfferCode = sheet.purpose { state.sheet = nil }
    return []
  case .attachedSignInPresented(let form):
    if state.sheet == nil {
      state.sheet = .signIn(form)
      state.notice = Notice("\(form.app ?? "An app") asks you to sign in to buy.")
    }
    return []
  case .attachedAppLogged(let lines):
    AppReducer.appendLog(lines, [], &state)
    return []
  case .attachedAskToBuy(let name):
    if state.sheet == nil { state.sheet = .askToBuy(productName: name) }
    return []
  case .attachedSheetWithdrawn(let id):
    if case .purchase(let sheet) = state.sheet, sheet.app != nil, sheet.transaction == id { state.sheet = nil }
    if case .signIn(let form) = state.sheet, form.app != nil, form.purpose == .purchase(id) { state.sheet = nil }
    return []
  case .historyRead(let window):
    state.show(window)
    return []
  case .accountLoaded(let snapshot):
    state.load(snapshot)
    AppReducer.clampAll(&state)
    return []
  case .commandSucceeded(let command, let message):
    if case .signIn = command, case .signIn = state.sheet { state.sheet = nil }
    if case .saveCatalog = command, case .catalogForm = state.sheet { state.sheet = nil }
    if let message { state.notice = Notice(message, kind: .success) }
    return []
  case .commandFailed(let command, let message):
    switch command {
    case .signIn:
      if case .signIn(var form) = state.sheet {
        form.error = message
        form.password = ""
        form.field = .password
        state.sheet = .signIn(form)
      }
    case .restore:
      state.isRestoring = false
    case .saveCatalog:
      if case .catalogForm(var form) = state.sheet {
        form.problem = message
        state.sheet = .catalogForm(form)
      }
    default:
      break
    }
    state.notice = Notice(message, kind: .error)
    return []
  }
}

/// The reducer's parts, split by concern.
enum AppReducer {
  static func tick(_ date: Date, _ state: inout AppState) {
    if state.isBusy { state.spinnerFrame &+= 1 }
    guard var notice = state.notice else { return }
    if let shown = notice.shownAt {
      if date.timeIntervalSince(shown) >= Notice.duration { state.notice = nil }
    } else {
      notice.shownAt = date
      state.notice = notice
    }
  }

  /// How many rows a pane's list has.
  static func count(_ pane: Pane, _ state: AppState) -> Int {
    switch pane {
    case .store: state.products.count
    case .transactions: state.history.total
    case .settings: SettingsItem.all.count
    case .log: state.shownLog.count
    case .server: (state.server?.showsNotifications ?? false ? state.server?.notifications.count : state.server?.requests.count) ?? 0
    case .catalog: state.catalogEditor.rows.count
    }
  }

  /// Moves a pane's selection to `target` (clamped) and scrolls it into view.
  static func select(_ target: Int, in pane: Pane, _ state: inout AppState) {
    let count = count(pane, state)
    var scroll = state.scroll(of: pane)
    scroll.selection = ScrollViewport.move(target, by: 0, count: count)
    var viewport = ScrollViewport(firstRow: scroll.firstRow, visibleRows: AppLayout(size: state.size).visibleRows(pane))
    viewport.reveal(scroll.selection, count: count)
    scroll.firstRow = viewport.firstRow
    state.scroll[pane] = scroll
    if pane == .log { state.logFollowsTail = count == 0 || scroll.selection == count - 1 }
  }

  static func clampAll(_ state: inout AppState) {
    for pane in Pane.allCases {
      select(state.scroll(of: pane).selection, in: pane, &state)
    }
    if state.logFollowsTail { select(count(.log, state) - 1, in: .log, &state) }
    switch state.sheet {
    case .help(let first):
      state.sheet = .help(firstRow: min(first, SheetLayout.scrollLimit(sheet: .help(firstRow: first), size: state.size)))
    case .jws(var detail):
      detail.firstRow = min(detail.firstRow, SheetLayout.scrollLimit(sheet: .jws(detail), size: state.size))
      state.sheet = .jws(detail)
    case .request(var detail):
      detail.firstRow = min(detail.firstRow, SheetLayout.scrollLimit(sheet: .request(detail), size: state.size))
      state.sheet = .request(detail)
    default:
      break
    }
  }

  /// The decoded lines of a signed transaction for the JWS sheet.
  /// What Apple's e-mail receipt and the app's server add to a transaction: its order id and the
  /// last Send Consumption Information report, above the signed transaction.
  static func receiptLines(_ transaction: PaymentTransaction) -> [String] {
    var lines: [String] = []
    if let order = transaction.orderID { lines.append("Order ID: \(order)") }
    if let report = transaction.consumption {
      var parts = ["delivery \(report.deliveryStatus)"]
      if let percentage = report.consumptionPercentage { parts.append("consumed \(Double(percentage) / 1000) %") }
      if let preference = report.refundPreference { parts.append("refund preference \(preference)") }
      parts.append(report.sampleContentProvided ? "sample provided" : "no sample")
      lines.append("Consumption (from the server): " + parts.joined(separator: ", "))
    }
    return lines.isEmpty ? [] : lines + [""]
  }

  static func jwsLines(_ jws: String) -> [String] {
    do {
      let decoded = try CompactJWS(jws)
      return ["Header"] + decoded.prettyHeaderJSON.components(separatedBy: "\n")
        + ["", "Payload"] + decoded.prettyPayloadJSON.components(separatedBy: "\n")
        + ["", "Signature: \(decoded.signature.count) bytes"]
    } catch {
      var lines = ["Not a compact JWS: \(error)", "", "Raw value:"]
      var rest = Substring(jws)
      while !rest.isEmpty {
        lines.append(String(rest.prefix(64)))
        rest = rest.dropFirst(64)
      }
      return lines
    }
  }
}
