import Foundation
import SimulatedApp
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The simulated app's finishing modes in the TUI: the Settings rows, the runtime's server calls
/// (made elsewhere; answers come back as actions), the Log line, and the "manually" hint.
@MainActor
@Suite struct AppFinishesTUITests {
  private let url = "http://127.0.0.1:9/verify"

  /// A runtime whose app-server calls are recorded, not made.
  private func runtime(_ store: TestStore, mode: AppFinishMode) throws -> (AppRuntime, Recorder) {
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    let recorder = Recorder()
    runtime.appServer = { recorder.requests.append($0) }
    runtime.send(.appFinishModeSet(mode))
    return (runtime, recorder)
  }

  private func logLines(_ runtime: AppRuntime) -> [String] {
    let log = runtime.state.log
    return (0..<log.count).map { log[$0] }
  }

  @MainActor final class Recorder {
    var requests: [AppServerRequest] = []
  }

  @Test func manuallyLeavesThePurchaseUnfinishedAndSaysWhichKeyFinishesIt() throws {
    let store = try TestStore()
    let (runtime, recorder) = try runtime(store, mode: .manually)
    let bought = try store.buy(FixtureCatalog.coins)
    #expect(store.queue.unfinishedTransactions.map(\.id) == [bought.id])
    #expect(recorder.requests.isEmpty)
    #expect(runtime.state.notice?.text.contains("f in Transactions (2)") == true)
    press(runtime, .char("2"))
    #expect(runtime.render().plainText.contains("1 unfinished (manual: f finishes)"))
  }

  @Test func atStartupTheNoticeSaysWhyTransactionsAreUnfinished() throws {
    let store = try TestStore()
    _ = try store.buy(FixtureCatalog.coins)
    let (manual, _) = try runtime(store, mode: .manually)
    #expect(manual.state.notice?.text == "1 unfinished: this app finishes manually; f in Transactions (2) finishes it.")
    let (atOnce, _) = try runtime(store, mode: .atOnce)
    #expect(atOnce.state.notice == nil, "an app that finishes by itself needs no explanation")
  }

  @Test func atOnceFinishesAsSoonAsThePurchaseArrives() throws {
    let store = try TestStore()
    let (runtime, recorder) = try runtime(store, mode: .atOnce)
    _ = try store.buy(FixtureCatalog.coins)
    #expect(store.queue.unfinishedTransactions.isEmpty)
    #expect(recorder.requests.isEmpty)
    #expect(runtime.state.notice?.text.contains("f in Transactions") != true)
  }

  @Test func afterServerFinishesOnA2xxOnlyAndLogsEachAnswer() throws {
    let store = try TestStore()
    let (runtime, recorder) = try runtime(store, mode: .afterServer(url: url))
    let bought = try store.buy(FixtureCatalog.coins)
    let request = try #require(recorder.requests.first)
    #expect(recorder.requests.count == 1)
    #expect(request.transactionID == bought.id.description && request.url == url)
    #expect(store.queue.unfinishedTransactions.map(\.id) == [bought.id], "not before the server answered")

    runtime.send(.appServerAnswered(AppServerAnswer(request: request, status: 500, milliseconds: 7)))
    #expect(store.queue.unfinishedTransactions.map(\.id) == [bought.id])
    #expect(runtime.state.notice?.kind == .error)
    #expect(logLines(runtime).last?.contains("appServerCall") == true)
    #expect(logLines(runtime).last?.contains("status=500") == true)

    // L relaunches: delivered again, asked again; a time-out leaves it, a 200 finishes it.
    press(runtime, .char("L"))
    #expect(recorder.requests.count == 2)
    runtime.send(.appServerAnswered(AppServerAnswer(request: request, status: nil, milliseconds: 10_000, error: "Timeout was reached")))
    #expect(store.queue.unfinishedTransactions.map(\.id) == [bought.id])
    #expect(logLines(runtime).last?.contains("Timeout was reached") == true)
    press(runtime, .char("L"))
    runtime.send(.appServerAnswered(AppServerAnswer(request: recorder.requests[2], status: 200, milliseconds: 3)))
    #expect(store.queue.unfinishedTransactions.isEmpty)
    #expect(logLines(runtime).contains { $0.contains("status=200") && $0.contains("finishes=yes") })
  }

  @Test func theSettingsRowCyclesTheModesAndAsksForTheURLFirst() throws {
    let store = try TestStore()
    let (runtime, _) = try runtime(store, mode: .manually)
    try selectSettingsRow(.appFinishes, runtime)
    #expect(SettingsItem.appFinishes.value(in: runtime.state) == "manually (f in Transactions)")
    press(runtime, .enter)
    #expect(runtime.state.appFinisher.mode == .atOnce)
    press(runtime, .enter)
    guard case .notificationURL(let sheet) = runtime.state.sheet, sheet.purpose == .appServer else {
      Issue.record("no URL sheet for the app's server")
      return
    }
    #expect(runtime.render().plainText.contains("The App's Server"))
    for action in typing(url) { runtime.send(action) }
    press(runtime, .enter)
    #expect(runtime.state.appFinisher.mode == .afterServer(url: url))
    #expect(SettingsItem.appServerURL.value(in: runtime.state) == url)
    press(runtime, .enter)
    #expect(runtime.state.appFinisher.mode == .manually, "the cycle goes round")
    press(runtime, .enter, .enter)
    #expect(runtime.state.appFinisher.mode == .afterServer(url: url), "the URL is remembered")
  }
}
