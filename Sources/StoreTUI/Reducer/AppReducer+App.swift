import Foundation
import SimulatedApp
import StoreEngine
import StoreScenario

extension AppReducer {
  private static let appFormatter = EventFormatter(json: false)

  /// The simulated app's reaction to an engine event: finish now, or ask its server first.
  /// What it finishes answering one callback commits together (a day of renewals is one commit).
  static func appReacts(to event: StoreEvent, _ state: inout AppState) -> [AppCommand] {
    var commands: [AppCommand] = []
    var finishing: [PaymentTransaction.ID] = []
    func flush() {
      if finishing.count == 1, let id = finishing.first { commands.append(.finish(id)) }
      if finishing.count > 1 { commands.append(.finishAll(finishing)) }
      finishing = []
    }
    for action in state.appFinisher.actions(for: event) {
      switch action {
      case .finish(let id): finishing.append(id)
      case .post(let request):
        flush()
        commands.append(.callAppServer(request))
      }
    }
    flush()
    return commands
  }

  /// The server's answer goes to the log; a 2xx finishes the transaction, anything else leaves it
  /// for the next launch (L relaunches).
  static func appServerAnswered(_ answer: AppServerAnswer, _ state: inout AppState) -> [AppCommand] {
    state.log.append(appFormatter.lines(for: answer, at: state.clock))
    if state.logFollowsTail, state.logAPI == .storeKit1 { select(state.shownLog.count - 1, in: .log, &state) }
    let commands: [AppCommand] = state.appFinisher.answered(answer).compactMap { action in
      if case .finish(let id) = action { return .finish(id) }
      return nil
    }
    if !answer.accepted {
      let why = answer.status.map { "answered HTTP \($0)" } ?? "did not answer (\(answer.error ?? "no reason"))"
      state.notice = Notice(
        "The app's server \(why) for transaction \(answer.request.transactionID): left unfinished; L relaunches and the app asks again.",
        kind: .error)
    }
    return commands
  }

  /// At startup, why the header counts unfinished transactions: this app leaves finishing to the tester.
  static func explainUnfinished(_ state: inout AppState) {
    let waiting = state.unfinishedTransactions.filter(\.isFinishable).count
    guard state.appFinisher.mode == .manually, waiting > 0, state.notice == nil else { return }
    // Short enough for 80 columns; the Settings row "App finishes transactions" changes the mode.
    state.notice = Notice("\(waiting) unfinished: this app finishes manually; f in Transactions (2) finishes \(waiting == 1 ? "it" : "one").")
  }

  static func setAppFinishMode(_ mode: AppFinishMode, _ state: inout AppState) {
    state.appFinisher.mode = mode
    if let url = mode.serverURL { state.appServerURL = url }
  }

  /// The Settings pane's URL sheet for the app's server: a URL turns the mode to after-server, an
  /// empty one back to manually.
  static func setAppServerURL(_ url: String?, _ state: inout AppState) {
    state.appServerURL = url
    if let url {
      setAppFinishMode(.afterServer(url: url), &state)
      state.notice = Notice("The app now finishes a purchase after \(url) answers 2xx.", kind: .success)
    } else if state.appFinisher.mode.serverURL != nil {
      setAppFinishMode(.manually, &state)
      state.notice = Notice("The app finishes manually: f in Transactions (2) finishes.", kind: .success)
    }
  }
}
