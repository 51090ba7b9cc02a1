import Foundation
import StoreEngine

extension AppRuntime {
  /// The app starts: unfinished transactions are delivered again (a failure shows as a notice).
  public func launch() {
    do {
      try queue.launch()
    } catch {
      send(.commandFailed(.relaunch, message: TUIErrorText.message(for: error)))
    }
  }

  /// Runs one command (a store command, or the TUI's own) and reports how it went as an action.
  func run(_ command: AppCommand) {
    do {
      let message = try execute(command)
      // A command may change what attached apps see (a setting, an answer); the clock's advance does not.
      if case .advance = command {} else if storefrontEntry != nil { attendAttachedApps() }
      send(.commandSucceeded(command, message: message))
    } catch let error as EngineError {
      send(.commandFailed(command, message: TUIErrorText.message(for: error)))
    } catch {
      send(.commandFailed(command, message: String(describing: error)))
    }
  }

  private func execute(_ command: AppCommand) throws -> String? {
    switch command {
    case .exportJWS(let id, let path):
      return try export(id, to: path)
    case .quit:
      wantsQuit = true
      return nil
    case .saveCatalog(let bytes, let summary):
      return try saveCatalog(bytes, summary: summary)
    case .reloadCatalog:
      return try reloadCatalog()
    case .showReceipt:
      guard let receipts, let account = queue.currentAccount else { return "No app receipt: sign in with a data directory first." }
      let decoded = try receipts.decoded(account)
      send(.receiptRead(title: decoded.title, lines: decoded.lines))
      return nil
    case .exportReceipt(let path):
      guard let receipts, let account = queue.currentAccount else { return "No app receipt: sign in with a data directory first." }
      let url = exportURL(path)
      let der = try receipts.receipt(account)
      do {
        try der.write(to: url, options: .atomic)
      } catch {
        throw ExportError(message: "Could not write '\(url.path)': \(error.localizedDescription). Choose a writable path.")
      }
      return "Saved the app receipt of '\(account)' (\(der.count) bytes, DER) to \(url.path)."
    case .setNotificationURL(let url):
      try queue.perform(.setNotificationURL(environment: notificationEnvironment, url: url))
      send(.notificationURLRead(url))
      return url.map { "Notifications for \(notificationEnvironment) go to \($0)." } ?? "Notifications for \(notificationEnvironment) are off."
    case .setServerFault(let fault):
      guard let serverFaults else { return "No data directory: the server fault cannot be set." }
      if let problem = serverFaults.write(fault) { throw SettingError(message: problem) }
      send(.serverFaultRead(serverFaults.read()))
      return "Server fault for all endpoints: \(fault.answer == .off ? "off" : fault.answer.rawValue), delay \(fault.delayMilliseconds) ms."
    case .retentionFlow(let id, let product):
      return try startRetentionFlow(id, product: product)
    case .callAppServer(let request):
      guard let appServer else { throw SettingError(message: "The app has no HTTP client here; set App finishes to manually or at once.") }
      appServer(request)
      return "Asking the app's server about transaction \(request.transactionID)…"
    case .rescindConsent:
      try queue.refresh()
      try queue.rescindConsent()
      let account = queue.currentAccount ?? ""
      return state.notificationURL == nil
        ? "A parent withdrew consent for '\(account)'. No notification URL is set, so the app's server is not told (set one in Settings)."
        : "A parent withdrew consent for '\(account)': the app's server gets RESCIND_CONSENT."
    case .answerCodeSheet(let session, let code):
      shownCodeSheet = nil
      try queue.tell(.codeSheet(session: session, code.map { .redeem($0) } ?? .cancelled))
      return code.map { "Sent the code \($0) to the app; it redeems it." } ?? "Cancelled the app's offer-code sheet."
    case .answerSheet(let id, let answer):
      return try answerAttachedSheet(id, answer)
    case .signInForAttachedApp(let id, let name, let password):
      return try signInForAttachedApp(id, name: name, password: password)
    case .redeliver(let sequence):
      guard let outbox = queue.ledger as? any NotificationOutbox else { return "This store keeps no outbox." }
      try outbox.redeliver(sequence, at: queue.now)
      readNotifications(including: sequence)
      return "Notification #\(sequence) is due again; the serving process delivers it."
    default:
      guard let store = command.storeCommand(now: queue.now) else { return nil }
      // A key works on the ledger as it is: what another process committed since the last tick
      // comes in first, or the step would be worked out on stale rows and overwrite them.
      try queue.refresh()
      try queue.perform(store)
    }
    switch command {
    case .relaunch:
      // A relaunch re-reads the ledger; so does the app's view of it.
      send(.accountLoaded(try AccountSnapshot(queue: queue)))
      return "Relaunched: \(queue.unfinishedTransactions.count) unfinished transactions delivered again."
    case .clearHistory:
      return "Cleared the purchase history of '\(queue.currentAccount ?? "")'."
    default:
      return nil
    }
  }

  private func export(_ id: PaymentTransaction.ID, to path: String) throws -> String {
    guard let jws = try queue.transaction(id)?.signedTransaction else {
      throw ExportError(message: "Transaction \(id) has no signed transaction to export; only purchased, restored and renewed ones are signed.")
    }
    let url = exportURL(path)
    do {
      try Data((jws + "\n").utf8).write(to: url, options: .atomic)
    } catch {
      throw ExportError(
        message: "Could not write '\(url.path)': \(error.localizedDescription). Choose a writable path.")
    }
    return "Saved the JWS of transaction \(id) to \(url.path)."
  }
}

extension AppRuntime {
  /// `path` with `~` expanded; relative to ``exportDirectory``.
  func exportURL(_ path: String) -> URL {
    let expanded = (path as NSString).expandingTildeInPath
    return expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : exportDirectory.appendingPathComponent(expanded)
  }
}

/// Why a JWS export failed, in words for the status line.
struct ExportError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
