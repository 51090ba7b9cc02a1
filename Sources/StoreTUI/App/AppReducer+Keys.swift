import Foundation
import StoreEngine

extension AppReducer {
  static func key(_ key: Key, _ state: inout AppState) -> [AppCommand] {
    switch key {
    case .mouse(let event): return mouse(event, &state)
    case .resize: return []
    default: break
    }
    if let sheet = state.sheet { return sheetKey(key, sheet, &state) }
    if AppLayout(size: state.size).isTooSmall {
      // Nothing else is visible, so only quitting is allowed.
      return key == .char("q") ? quit(&state) : []
    }
    let pane = state.focus
    switch key {
    case .tab: state.focus = pane.next
    case .backTab: state.focus = pane.previous
    case .char(let c) where Pane.allCases.contains(where: { $0.shortcut == c }):
      state.focus = Pane.allCases.first { $0.shortcut == c } ?? pane
    case .char("?"), .function(1): state.sheet = .help(firstRow: 0)
    case .char("q"): return quit(&state)
    case .char("r"): return restore(&state)
    case .char("i"): state.sheet = .signIn(SignInSheet(purpose: nil, account: state.account ?? ""))
    case .char("+"): return [.advance(3_600)]
    case .char("]"): return [.advance(86_400)]
    case .char("}"): return [.advance(30 * 86_400)]
    case .char("L"):
      state.sheet = nil
      return [.relaunch]
    case .up, .char("k"): move(by: -1, &state)
    case .down, .char("j"): move(by: 1, &state)
    case .pageUp: move(by: -pageStep(pane, state), &state)
    case .pageDown: move(by: pageStep(pane, state), &state)
    case .home: select(0, in: pane, &state)
    case .end: select(count(pane, state) - 1, in: pane, &state)
    default: return paneKey(key, pane, &state)
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

  static func paneKey(_ key: Key, _ pane: Pane, _ state: inout AppState) -> [AppCommand] {
    switch pane {
    case .store:
      guard key == .enter || key == .char("b") else { return [] }
      guard let product = state.selectedProduct else { return [] }
      return [.buy(product.id)]
    case .transactions:
      return transactionKey(key, &state)
    case .settings:
      let step: Int
      switch key {
      case .enter, .char(" "), .right, .char("l"): step = 1
      case .left, .char("h"): step = -1
      default: return []
      }
      return changeSetting(at: state.scroll(of: .settings).selection, step: step, &state)
    case .log:
      switch key {
      case .right, .char("l"): state.logColumn = min(state.logColumn + logStep, 10 * logStep)
      case .left, .char("h"): state.logColumn = max(0, state.logColumn - logStep)
      default: break
      }
      return []
    }
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
    }
  }

  static func transactionKey(_ key: Key, _ state: inout AppState) -> [AppCommand] {
    guard case .char = key else {
      return key == .enter ? transactionKey(.char("v"), &state) : []
    }
    let known: Set<Key> = [.char("f"), .char("a"), .char("d"), .char("R"), .char("x"), .char("v"), .char("e"),
      .char("A"), .char("E"), .char("N")]
    guard known.contains(key) else { return [] }
    guard let transaction = state.selectedTransaction else {
      state.notice = Notice("No transaction selected: buy something in the Store pane first.", kind: .error)
      return []
    }
    let id = transaction.id
    let record = state.subscriptions.first { $0.originalID == transaction.originalID }
    switch key {
    case .char("f"): return [.finish(id)]
    case .char("a"): return [.approve(id)]
    case .char("d"): return [.decline(id)]
    case .char("x"): return [.refund(id)]
    case .char("R"):
      if !transaction.needsResolution, let record, record.status == .inBillingRetry || record.status == .inGracePeriod {
        return [.resolveBillingIssue(id)]
      }
      return [.resolve(id)]
    case .char("v"), .char("e"):
      guard let jws = transaction.signedTransaction else {
        state.notice = Notice(
          "Transaction \(id) is \(transaction.state.name) and has no signed transaction; only purchased, restored and renewed ones are signed.",
          kind: .error)
        return []
      }
      if key == .char("v") {
        state.sheet = .jws(JWSSheet(transaction: id, lines: jwsLines(jws)))
      } else {
        state.sheet = .export(ExportSheet(transaction: id, path: "transaction-\(id).jws"))
      }
      return []
    default:
      guard let record else {
        state.notice = Notice(
          "Transaction \(id) (\(state.displayName(of: transaction.productID))) is not an auto-renewable subscription.",
          kind: .error)
        return []
      }
      switch key {
      case .char("A"): return [.setAutoRenew(id, !record.autoRenew)]
      case .char("E"): return [.expireSubscription(id)]
      default: return [.renewNow(id)]
      }
    }
  }
}
