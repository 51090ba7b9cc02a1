import Foundation
import StoreEngine

extension AppReducer {
  /// A key: looked up in ``KeyBindings`` for the sheet that is up or the focused pane, then its
  /// intent is carried out.
  static func key(_ key: Key, _ state: inout AppState) -> [AppCommand] {
    switch key {
    case .mouse(let event): return mouse(event, &state)
    case .resize: return []
    default: break
    }
    if let sheet = state.sheet { return sheetKey(key, sheet, &state) }
    let pane = state.focus
    let intent = KeyBindings.intent(for: key, in: .pane(pane))
    if AppLayout(size: state.size).isTooSmall {
      // Nothing else is visible, so only quitting is allowed.
      return intent == .quit ? quit(&state) : []
    }
    guard let intent else { return [] }
    switch intent {
    case .nextPane: state.focus = pane.next(in: state.panes)
    case .previousPane: state.focus = pane.previous(in: state.panes)
    case .focus(let target):
      guard state.panes.contains(target) else {
        state.notice = Notice("No \(target.title) pane: start storefront with --serve to serve the App Store Server API.")
        return []
      }
      state.focus = target
    case .help: state.sheet = .help(firstRow: 0)
    case .quit: return quit(&state)
    case .restore: return restore(&state)
    case .signIn: state.sheet = .signIn(SignInSheet(purpose: nil, account: state.account ?? ""))
    case .advanceClock(let seconds): return [.advance(seconds)]
    case .relaunch:
      state.sheet = nil
      return [.relaunch]
    case .moveUp: move(by: -1, &state)
    case .moveDown: move(by: 1, &state)
    case .pageUp: move(by: -pageStep(pane, state), &state)
    case .pageDown: move(by: pageStep(pane, state), &state)
    case .top: select(0, in: pane, &state)
    case .bottom: select(count(pane, state) - 1, in: pane, &state)
    case .buy:
      guard let product = state.selectedProduct else { return [] }
      return [.buy(product.id)]
    case .buyMonthlyPlan:
      guard let product = state.selectedProduct else { return [] }
      guard product.subscription?.billingPlanTypes.contains(BillingPlan.monthly) == true else {
        state.notice = Notice("\(product.referenceName) has no monthly plan: press Enter to buy it.", kind: .error)
        return []
      }
      return [.buyOnPlan(product.id, plan: BillingPlan.monthly)]
    case .redeemCode: state.sheet = .notificationURL(URLSheet(url: "", purpose: .offerCode))
    case .storePayment:
      guard let product = state.selectedProduct else { return [] }
      return [.storePayment(product.id)]
    case .finish, .approve, .decline, .resolve, .refund, .viewJWS, .exportJWS, .toggleAutoRenew, .expireNow,
      .renewNow, .cancelSubscription:
      return transactionIntent(intent, &state)
    case .viewReceipt: return [.showReceipt]
    case .exportReceipt:
      state.sheet = .export(ExportSheet(receiptOf: state.account ?? "account"))
    case .nextValue: return changeSetting(at: state.scroll(of: .settings).selection, step: 1, &state)
    case .previousValue: return changeSetting(at: state.scroll(of: .settings).selection, step: -1, &state)
    case .panRight: state.logColumn = min(state.logColumn + logStep, 10 * logStep)
    case .panLeft: state.logColumn = max(0, state.logColumn - logStep)
    case .toggleLogAPI:
      state.logAPI = state.logAPI == .storeKit1 ? .storeKit2 : .storeKit1
      select(count(.log, state) - 1, in: .log, &state)
      state.notice = Notice("Log: the \(state.logAPI.title) view.")
    case .openRequest: openRequest(&state)
    case .toggleNotifications: toggleNotifications(&state)
    case .redeliver: return redeliver(&state)
    case .editCatalogEntry, .addProduct, .duplicateProduct, .deleteProduct, .moveLevel, .reloadCatalog:
      return catalogIntent(intent, &state)
    case .confirm, .cancel, .dismiss, .close, .nextField, .previousField, .erase, .type:
      // Sheet intents: only bound while a sheet is up, and then ``sheetKey(_:_:_:)`` has the key.
      break
    }
    return []
  }

  static func move(by delta: Int, _ state: inout AppState) {
    let pane = state.focus
    select(state.scroll(of: pane).selection + delta, in: pane, &state)
  }

  /// Cells ← and → scroll the Log pane by.
  static let logStep = 20

  static func pageStep(_ pane: Pane, _ state: AppState) -> Int {
    ScrollViewport(visibleRows: AppLayout(size: state.size).visibleRows(pane)).pageStep
  }

  static func quit(_ state: inout AppState) -> [AppCommand] {
    guard !state.inFlight.isEmpty else { return [.quit] }
    state.sheet = .confirm(ConfirmSheet(
      title: "Quit Storefront?",
      message: "A purchase is in flight. Quit anyway? Its transaction stays in the queue and is delivered again at the next launch.",
      confirmTitle: "Quit", cancelTitle: "Stay", command: .quit))
    return []
  }

  static func restore(_ state: inout AppState) -> [AppCommand] {
    guard !state.isRestoring else {
      state.notice = Notice("A restore is already in progress.")
      return []
    }
    state.isRestoring = true
    return [.restore]
  }

  static func changeSetting(at index: Int, step: Int, _ state: inout AppState) -> [AppCommand] {
    guard SettingsItem.all.indices.contains(index) else { return [] }
    switch SettingsItem.all[index].change(in: state, step: step) {
    case .nothing: return []
    case .command(let command):
      if command == .relaunch { state.sheet = nil }
      return [command]
    case .sheet(let sheet):
      state.sheet = sheet
      return []
    case .appFinishes(let mode):
      setAppFinishMode(mode, &state)
      return []
    }
  }

  /// A Transactions pane intent, carried out on the selected transaction.
  static func transactionIntent(_ intent: KeyIntent, _ state: inout AppState) -> [AppCommand] {
    guard let transaction = state.selectedTransaction else {
      state.notice = Notice("No transaction selected: buy something in the Store pane first.", kind: .error)
      return []
    }
    let id = transaction.id
    let record = state.subscriptions.first { $0.originalID == transaction.originalID }
    switch intent {
    case .finish:
      if let app = state.otherApp(of: transaction) {
        state.notice = Notice(
          "Transaction \(id) is in \(app)'s queue: that app finishes it (it is delivered to it again at its next launch).",
          kind: .error)
        return []
      }
      return [.finish(id)]
    case .approve: return [.approve(id)]
    case .decline: return [.decline(id)]
    case .refund: return [.refund(id)]
    case .resolve:
      if !transaction.needsResolution, let record, record.status == .inBillingRetry || record.status == .inGracePeriod {
        return [.resolveBillingIssue(id)]
      }
      return [.resolve(id)]
    case .viewJWS, .exportJWS:
      guard let jws = transaction.signedTransaction else {
        state.notice = Notice(
          "Transaction \(id) is \(transaction.state.name) and has no signed transaction; only purchased, restored and renewed ones are signed.",
          kind: .error)
        return []
      }
      if intent == .viewJWS {
        state.sheet = .jws(JWSSheet(transaction: id, lines: receiptLines(transaction) + jwsLines(jws)))
      } else {
        state.sheet = .export(ExportSheet(transaction: id, path: "transaction-\(id).jws"))
      }
      return []
    case .toggleAutoRenew, .expireNow, .renewNow, .cancelSubscription:
      guard let record else {
        state.notice = Notice(
          "Transaction \(id) (\(state.displayName(of: transaction.productID))) is not an auto-renewable subscription.",
          kind: .error)
        return []
      }
      switch intent {
      case .toggleAutoRenew: return [.setAutoRenew(id, !record.autoRenew)]
      case .cancelSubscription: return cancelSubscription(id, product: transaction.productID, autoRenew: record.autoRenew, &state)
      case .expireNow: return [.expireSubscription(id)]
      default: return [.renewNow(id)]
      }
    default:
      return []
    }
  }
}
