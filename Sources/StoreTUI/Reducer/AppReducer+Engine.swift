import Foundation
import StoreEngine
import StoreScenario

extension AppReducer {
  private static let formatter = EventFormatter(json: false)

  /// Committed changes: the read model takes them in and the rows they touch are re-derived.
  static func committed(_ commit: LedgerCommit, _ state: inout AppState) {
    state.apply(commit)
  }

  /// An engine event: the log gets its line, and sheets, the busy indicator and notices follow.
  /// Rows come from the committed changes (``committed(_:_:)``), which arrive before a step's events.
  static func engine(_ event: StoreEvent, _ state: inout AppState) -> [AppCommand] {
    // Taken out while it works, so that reading the state's transactions copies nothing.
    var view = state.storeKit2View
    state.storeKit2View = StoreKit2View()
    // The simulated app hears the real store's glitches the Settings pane switched (DECISIONS §46).
    view.glitches = state.controls
    let modern = view.lines(for: event, at: state.clock, formatter: formatter) { state.transaction($0) }
    view.glitchNotes = []  // the Log pane shows the purchase's own StoreKit 2 lines
    state.storeKit2View = view
    appendLog(formatter.lines(for: event, at: state.clock), modern, &state)
    switch event {
    case .transactionsUpdated(let list):
      for transaction in list where state.shows(transaction) {
        // Announced when the step changed it; a redelivery at launch is news to the app, not the tester.
        guard let previous = state.lastTouched.previous[transaction.id] else { continue }
        if previous?.state != transaction.state || previous?.purchaseDate != transaction.purchaseDate {
          announce(transaction, &state)
        }
      }
    case .transactionsRemoved(let list):
      if let last = list.last, list.count == 1 {
        state.notice = Notice("Finished transaction \(last.id) (\(state.displayName(of: last.productID))).")
      } else if !list.isEmpty {
        state.notice = Notice("Finished \(list.count) transactions.")
      }
    case .transactionRevoked(let transaction):
      if state.shows(transaction) {
        state.notice = Notice(
          "Refunded \(state.displayName(of: transaction.productID)) (transaction \(transaction.id)).", kind: .success)
      }
    case .restoreFinished(let count):
      state.isRestoring = false
      state.notice = Notice(
        count == 0 ? "Restore finished: nothing to restore." : "Restore finished: \(count) restored.", kind: .success)
    case .restoreFailed(let error):
      state.isRestoring = false
      state.notice = Notice("Restore failed: \(describe(error)).", kind: .error)
    case .promptPresented(let prompt):
      state.sheet = sheet(for: prompt, state)
    case .promptDismissed:
      if state.sheet?.isEnginePrompt == true { state.sheet = nil }
    case .accountChanged(let name):
      state.notice = Notice(name.map { "Signed in as '\($0)'." } ?? "Signed out.")
    case .controlsChanged(let controls):
      state.controls = controls
    case .subscriptionChanged(let record, let reason):
      state.notice = Notice("\(state.displayName(of: record.productID)): \(record.status.rawValue) (\(reason)).")
    case .transactionsAmended, .transactionsChangedElsewhere, .historyCleared, .clockAdvanced:
      break  // The committed changes before it carried what the rows show.
    case .askToBuyAnswered(let request, let approved):
      state.notice = Notice(
        approved
          ? "Ask to Buy: the parent approved \(state.displayName(of: request.productID))."
          : "Ask to Buy: the parent declined \(state.displayName(of: request.productID)); StoreKit tells the app nothing, it stays deferred.")
    case .storefrontChanged:
      break  // The header shows the storefront; the log has the callback.
    case .catalogChanged(let catalog):
      // Rows follow the catalog the store sells; the editor's file bytes come with `catalogLoaded`.
      state.catalogEditor.catalog = catalog
      state.replaceProducts(with: catalog)
      clampAll(&state)
    case .transactionDeleted(let transaction):
      state.notice = Notice("Deleted transaction \(transaction.id) (\(state.displayName(of: transaction.productID))).")
    case .misuse(let error):
      state.notice = Notice(TUIErrorText.message(for: error), kind: .error)
    case .productsRequestFailed(_, let error):
      state.notice = Notice("Products request failed: \(describe(error)).", kind: .error)
    case .productsResponse, .shouldAddStorePayment:
      break
    case .refundRequestFinished:
      // Only a scenario opens the app's refund sheet; a granted refund arrives as its own event.
      break
    case .notificationQueued:
      break  // The log shows it; delivery is the serving process's.
    }
    return []
  }

  /// `paymentCancelled (SKError 2)`: the name and the code an app would log.
  static func describe(_ error: StoreKitError) -> String {
    let domain = error.domain == StoreKitError.skErrorDomain ? "SKError" : error.domain
    return "\(error.name) (\(domain) \(error.code))"
  }

  private static func announce(_ transaction: PaymentTransaction, _ state: inout AppState) {
    let name = state.displayName(of: transaction.productID)
    switch transaction.state {
    case .purchasing, .restored:
      break
    case .purchased:
      if transaction.reason == .renewal {
        let until = transaction.expiresDate.map { " until \(DateText.short($0))" } ?? ""
        state.notice = Notice("Renewed \(name)\(until).", kind: .success)
      } else {
        let hint = state.appFinisher.mode == .manually ? " The app finishes manually: f in Transactions (2)." : ""
        state.notice = Notice("Purchased \(name) (transaction \(transaction.id)).\(hint)", kind: .success)
      }
    case .failed:
      let error = transaction.error.map(describe) ?? "unknown error"
      if transaction.needsResolution {
        state.notice = Notice("Purchase of \(name) was interrupted: \(error). Resolve it in Transactions (R).", kind: .error)
      } else {
        state.notice = Notice("Purchase of \(name) failed: \(error).", kind: .error)
      }
    case .deferred:
      state.notice = Notice("\(name) is waiting for Ask to Buy approval.")
      if state.sheet == nil { state.sheet = .askToBuy(productName: name) }
    }
  }

  private static func sheet(for prompt: PurchasePrompt, _ state: AppState) -> Sheet {
    switch prompt {
    case .confirm(let id, let product, let quantity, let owned, let price, let terms):
      // The engine's quote: an offer's price, zero for a re-download, as confirming will charge;
      // for a subscription also what it renews at (B73).
      var sheet = PurchaseSheet(
        transaction: id, product: product, productName: state.displayName(of: product), quantity: quantity,
        price: state.price(price.amount), alreadyOwned: owned,
        terms: terms.map { $0.map { state.price($0.amount) } })
      sheet.includes = state.bundledNames(of: product)
      return .purchase(sheet)
    case .signIn(let purpose):
      return .signIn(SignInSheet(purpose: purpose, account: state.account ?? state.knownAccounts.first ?? ""))
    }
  }

  static func appendLog(_ lines: [String], _ storeKit2Lines: [String], _ state: inout AppState) {
    state.log.append(lines)
    state.storeKit2Log.append(storeKit2Lines)
    guard !(state.logAPI == .storeKit2 ? storeKit2Lines : lines).isEmpty else { return }
    if state.logFollowsTail {
      select(state.shownLog.count - 1, in: .log, &state)
    } else {
      // Older lines may have been dropped; keep the selection on a valid line.
      select(state.scroll(of: .log).selection, in: .log, &state)
      state.logFollowsTail = false
    }
  }
}
