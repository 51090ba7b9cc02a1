import Foundation
import StoreEngine
import StoreScenario
import StoreTUI
import StorefrontTestSupport
import Testing

/// `m` on a subscription: the runtime asks the realtime flow with the subscription's original
/// transaction and the device's locale, then shows the cancel sheet it decided; `y` takes what it
/// offers, `Space` cancels anyway, `Esc` keeps the subscription (issue 36).
@MainActor
@Suite struct RetentionSheetTests {
  final class Requests {
    var seen: [RetentionFlowRequest] = []
  }

  private func subscribed() throws -> (TestStore, AppRuntime, Requests, PaymentTransaction) {
    let store = try TestStore()
    let bought = try store.buy(FixtureCatalog.monthly)
    try store.queue.finish(bought.id)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    let requests = Requests()
    runtime.retentionFlow = { requests.seen.append($0) }
    press(runtime, .char("2"))
    press(runtime, .char("m"))
    return (store, runtime, requests, bought)
  }

  @Test func theFlowNamesTheSubscriptionAndTheAlternateSheetSwitchesOrCancels() throws {
    let (store, runtime, requests, bought) = try subscribed()
    #expect(requests.seen == [RetentionFlowRequest(productID: FixtureCatalog.monthly, originalTransactionID: "\(bought.originalID)", locale: "en-US")])
    #expect(runtime.state.sheet == nil, "no sheet before the answer")
    runtime.retentionFinished(
      RetentionFlowResult(decision: RetentionDecision(sheet: .alternateProduct(FixtureCatalog.yearly, messageID: nil, message: nil))))
    guard case .confirm(let sheet) = runtime.state.sheet else {
      Issue.record("expected the cancel sheet, got \(String(describing: runtime.state.sheet))")
      return
    }
    #expect(sheet.confirmTitle.hasPrefix("Switch to"))
    #expect(sheet.command == .buy(FixtureCatalog.yearly))
    #expect(sheet.alternative?.command == .setAutoRenew(bought.id, false))
    #expect(runtime.render().plainText.contains("Cancel Subscription"))
    press(runtime, .char(" "))
    #expect(runtime.state.sheet == nil)
    #expect(store.queue.subscriptions().first?.autoRenew == false, "Space cancels anyway")
  }

  @Test func aFallbackShowsTheDefaultMessageAndItsReasonAndEscapeKeepsTheSubscription() throws {
    let (store, runtime, _, _) = try subscribed()
    let message = RetentionMessaging.Message(state: .approved, header: "Before you go", body: "Your streak ends.")
    runtime.retentionFinished(
      RetentionFlowResult(
        decision: RetentionDecision(sheet: .message(id: "m", message), fallbackReason: "the endpoint answered HTTP 500"),
        url: "http://127.0.0.1:9/", outcome: "HTTP 500", milliseconds: 3))
    let screen = runtime.render().plainText
    #expect(screen.contains("Before you go") && screen.contains("Your streak ends."))
    #expect(screen.contains("Default shown: the endpoint answered HTTP 500"))
    press(runtime, .escape)
    #expect(runtime.state.sheet == nil)
    #expect(store.queue.subscriptions().first?.autoRenew == true, "Esc keeps it")
  }

  @Test func aSubscriptionAlreadyCancelledAsksNothing() throws {
    let store = try TestStore()
    let bought = try store.buy(FixtureCatalog.monthly)
    try store.queue.setAutoRenew(false, for: bought.id)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    let requests = Requests()
    runtime.retentionFlow = { requests.seen.append($0) }
    press(runtime, .char("2"))
    press(runtime, .char("m"))
    #expect(requests.seen.isEmpty)
    #expect(runtime.state.notice?.text.contains("already cancelled") == true)
  }
}
