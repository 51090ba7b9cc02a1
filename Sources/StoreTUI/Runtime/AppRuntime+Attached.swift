import Foundation
import StoreEngine

/// The storefront as the device's App Store for apps attached to its store (DECISIONS §37): it
/// registers itself, names the attached apps, shows their purchase sheets and writes the answer,
/// which the app's own process carries out.
extension AppRuntime {
  /// Registers this storefront on its store: attached apps then wait for its answers (while its
  /// dialogs are on) and sell what `catalogPath` sells (nil: the built-in catalog).
  public func registerAsStorefront(catalogPath: String?) {
    var entry = AttachedProcess(
      session: queue.machine.environment.session.id, role: .storefront, bundleID: queue.bundleID, since: Date(),
      showsSheets: queue.controls.dialogsEnabled, catalog: catalogPath)
    entry.settings = DeviceSettings(queue.controls)
    // What apps heard before this storefront started is not news on its Log pane.
    appLogSeen = DeviceValues.logs(in: queue.deviceValues).mapValues(\.count)
    do {
      try queue.tell(.register(entry))
      storefrontEntry = entry
    } catch {
      send(.commandFailed(.relaunch, message: "Could not register as the attached apps' App Store: \(TUIErrorText.message(for: error))"))
    }
    attendAttachedApps()
  }

  /// Removes this storefront's entry (at quit).
  public func unregisterAsStorefront() {
    guard let entry = storefrontEntry else { return }
    try? queue.tell(.unregister(session: entry.session))
    storefrontEntry = nil
  }

  /// After a refresh: the header's list of apps, this storefront's dialogs setting as the apps see
  /// it, and the next attached app's sheet that waits.
  func attendAttachedApps() {
    ticksSinceAttend = 0
    guard var entry = storefrontEntry else { return }
    // The apps follow this storefront's Settings pane: its dialogs and its sandbox settings.
    if entry.showsSheets != queue.controls.dialogsEnabled || entry.settings != DeviceSettings(queue.controls) {
      entry.showsSheets = queue.controls.dialogsEnabled
      entry.settings = DeviceSettings(queue.controls)
      if (try? queue.tell(.register(entry))) != nil { storefrontEntry = entry }
    }
    let apps = queue.attachedProcesses.filter { $0.role == .app }
    if apps != state.attachedApps { send(.attachedAppsRead(apps)) }
    readAppLogs()
    let bundles = Dictionary(apps.map { ($0.session, $0.bundleID) }, uniquingKeysWith: { first, _ in first })
    let answers = queue.sheetAnswers
    let signIns = queue.sheetSignIns
    let waiting = queue.machine.purchasingTransactions.filter { transaction in
      guard let owner = transaction.ownerSession, bundles[owner] != nil else { return false }
      // A signed-out purchase whose sign-in was answered waits for the app to take the account.
      if transaction.account.isEmpty, signIns[transaction.id] != nil || signedInSheets.contains(transaction.id) { return false }
      return answers[transaction.id] == nil && !settledSheets.contains(transaction.id)
    }
    if let shown = shownAttachedSheet, !waiting.contains(where: { $0.id == shown }) {
      // Not settled: a killed app's purchase comes back with its next launch and is asked again.
      shownAttachedSheet = nil
      send(.attachedSheetWithdrawn(shown))
    }
    attendCodeSheets(apps: bundles)
    guard entry.showsSheets, shownAttachedSheet == nil, state.sheet == nil, let next = waiting.first,
      let owner = next.ownerSession, let app = bundles[owner]
    else { return }
    shownAttachedSheet = next.id
    if next.account.isEmpty {
      send(.attachedSignInPresented(SignInSheet(
        purpose: .purchase(next.id), account: state.account ?? state.knownAccounts.first ?? "", app: app)))
      return
    }
    // The app's engine quotes its sheet (an offer's price, the terms, Ask to Buy); it comes with
    // the app's next commit, and the sheet with it.
    guard let quote = queue.sheetQuotes[next.id] else {
      shownAttachedSheet = nil
      return
    }
    var sheet = PurchaseSheet(
      transaction: next.id, product: next.productID, productName: state.displayName(of: next.productID),
      quantity: next.quantity, price: state.price(quote.price), alreadyOwned: quote.alreadyOwned,
      terms: quote.terms.map { $0.map { state.price($0) } }, app: app)
    sheet.includes = state.bundledNames(of: next.productID)
    send(.attachedSheetPresented(sheet))
  }

  /// An attached app's offer-code sheet that waits is shown when nothing else is; one the app
  /// closed (or whose app quit) goes away.
  private func attendCodeSheets(apps bundles: [String: String]) {
    let waiting = queue.codeSheets.filter { $0.value == .waiting && bundles[$0.key] != nil }.keys.sorted()
    if let shown = shownCodeSheet, !waiting.contains(shown) {
      shownCodeSheet = nil
      if case .notificationURL(let sheet) = state.sheet, case .attachedOfferCode(shown, _) = sheet.purpose { send(.attachedCodeSheetWithdrawn) }
    }
    guard storefrontEntry?.showsSheets == true, shownCodeSheet == nil, shownAttachedSheet == nil, state.sheet == nil,
      let session = waiting.first, let app = bundles[session]
    else { return }
    shownCodeSheet = session
    send(.attachedCodeSheetPresented(session: session, app: app))
  }

  /// Each attached app's callbacks since the last look go to the Log pane, marked with its bundle id.
  /// Also an app that quit since: its last callbacks are shown all the same.
  private func readAppLogs() {
    var lines: [String] = []
    for (session, log) in DeviceValues.logs(in: queue.deviceValues).sorted(by: { $0.key < $1.key }) {
      let seen = appLogSeen[session] ?? 0
      guard log.count > seen else { continue }
      appLogSeen[session] = log.count
      lines += log.lines(after: seen).map { "[\(log.bundleID)] \($0)" }
    }
    if !lines.isEmpty { send(.attachedAppLogged(lines)) }
  }

  /// Signs this storefront (the device) in, checking the password, and tells the app whose
  /// signed-out purchase asked to take the account; its purchase sheet follows.
  func signInForAttachedApp(_ id: PaymentTransaction.ID, name: String, password: String) throws -> String {
    shownAttachedSheet = nil
    try queue.refresh()
    try queue.signIn(name, password: password)
    signedInSheets.insert(id)
    try queue.tell(.signedIn(id, account: name))
    return "Signed in as \(name) for the app; its purchase sheet follows."
  }

  /// Writes the storefront's answer to an attached app's sheet.
  func answerAttachedSheet(_ id: PaymentTransaction.ID, _ answer: SheetAnswer) throws -> String {
    shownAttachedSheet = nil
    settledSheets.insert(id)
    try queue.tell(.answer(id, answer))
    let transaction = (try? queue.transaction(id)) ?? nil
    let app = state.attachedApps.first { $0.session == transaction?.ownerSession }?.bundleID ?? "the app"
    guard answer == .confirm else { return "Cancelled for \(app)." }
    // The app follows this storefront's Settings (the device's): its Ask to Buy decides, or the
    // app's own where it answered before it took the storefront's settings in.
    if queue.controls.askToBuy || queue.sheetQuotes[id]?.asksToBuy == true {
      // As the simulated app's: the purchase goes to the parent; the app gets `deferred`.
      let name = transaction.map { state.displayName(of: $0.productID) } ?? "The purchase"
      send(.attachedAskToBuy(productName: name))
      return "Asked to buy for \(app): it gets deferred until a parent approves."
    }
    return "Confirmed for \(app); it completes the purchase."
  }
}
