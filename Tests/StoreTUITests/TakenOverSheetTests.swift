import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// A sheet whose purchase another process took over meanwhile (this one was cut off from the shared
/// ledger): answering it closes it with a notice that names the other device, and nothing is bought here.
@MainActor
@Suite struct TakenOverSheetTests {
  @Test func answeringASheetCompletedOnAnotherDeviceClosesItAndSaysSo() throws {
    let ledger = InMemoryLedgerStore()
    var mine = TestStore.environment
    mine.session = AppSession(id: "host-a", isAlive: { _ in true })
    let here = try TestStore(ledger: ledger, dialogs: true, environment: mine)
    let runtime = try AppRuntime(queue: here.queue, size: standardSize)
    let row = try #require(runtime.state.row(of: FixtureCatalog.removeAds))
    runtime.send(.key(.char("1")))
    runtime.send(.key(.home))
    for _ in 0..<row { runtime.send(.key(.down)) }
    runtime.send(.key(.enter))
    #expect(runtime.render().plainText.contains("Do you want to buy one Remove Ads"))

    var theirs = TestStore.environment
    theirs.session = AppSession(id: "host-b", isAlive: { _ in false })
    let there = try TestStore(ledger: ledger, dialogs: true, environment: theirs)
    try there.queue.launch()
    try there.queue.confirm()
    let completed = try #require(try ledger.transactions([PaymentTransaction.ID(1_000_000_001)]).first)
    #expect(completed.state == .purchased)

    here.observer.calls.removeAll()
    runtime.send(.key(.char("y")))
    #expect(runtime.state.sheet == nil)
    #expect(!runtime.state.isBusy, "nothing is in flight here any more")
    #expect(runtime.state.notice?.text == "This purchase was completed on another device; nothing was charged here (transaction 1000000001).")
    #expect(runtime.render().plainText.contains("completed on another device"))
    #expect(here.observer.calls.isEmpty, "the app here hears of no purchase")
    #expect(try ledger.transactions([completed.id]).first == completed)
    #expect(ledger.everything.transactions.count == 1)
  }
}
