import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// B69: the Log pane shows the same session as a StoreKit 1 app's observer callbacks or as what a
/// StoreKit 2 app gets (`purchase()` results, `Transaction.updates`); `s` switches.
@MainActor
@Suite struct LogStoreKitViewTests {
  @Test func b69SwitchesBetweenTheStoreKit1AndStoreKit2ViewOfOneSession() throws {
    let store = try TestStore(dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: Size(width: 120, height: 24))
    runtime.send(.key(.enter))  // buy the first product, Remove Ads
    runtime.send(.key(.char("y")))
    runtime.send(.key(.char("4")))
    let classic = runtime.render().plainText
    #expect(classic.contains("Observer log:"))
    #expect(classic.contains("updatedTransactions: \(FixtureCatalog.removeAds) purchased"))
    #expect(!classic.contains("purchase():"))

    runtime.send(.key(.char("s")))
    #expect(runtime.state.logAPI == .storeKit2)
    let modern = runtime.render().plainText
    #expect(modern.contains("StoreKit 2 view:"))
    #expect(modern.contains("purchase(): \(FixtureCatalog.removeAds) success verified (id 1000000001"))
    #expect(!modern.contains("updatedTransactions"))
    #expect(modern.contains("s SK1/SK2"), "the hint bar names the key")

    runtime.send(.key(.char("s")))
    #expect(runtime.state.logAPI == .storeKit1)
    #expect(runtime.render().plainText.contains("updatedTransactions: \(FixtureCatalog.removeAds) purchased"))
  }

  @Test func b69APurchaseTheAppDidNotStartIsATransactionUpdate() {
    var state = makeState(size: Size(width: 120, height: 24))
    var renewal = makeTransaction(7, FixtureCatalog.monthly, kind: .autoRenewableSubscription, state: .purchased)
    renewal.reason = .renewal
    renewal.signedTransaction = sampleJWS(transactionID: "7")
    send(&state, .key(.char("4")), .key(.char("s")), .engine(.transactionsUpdated([renewal])))
    let screen = render(state).plainText
    #expect(screen.contains("Transaction.updates: \(FixtureCatalog.monthly) verified (id 7"), "\(screen)")
    #expect(state.log.count == 1, "the StoreKit 1 log keeps its own line")
    #expect(state.storeKit2Log.count == 1)
  }
}

/// B6: the Settings pane's simulated errors include StoreKit 2's names, shown as such.
@Suite struct SettingsStoreKit2ErrorTests {
  @Test func b6FailureChoicesOfferStoreKit2NamesAndShowThem() throws {
    let names = SettingsItem.failureChoices.compactMap { $0?.storeKit2Name }
    #expect(names.contains("networkError") && names.contains("invalidQuantity") && names.contains("userCancelled"))
    #expect(SettingsItem.failureChoices.last == .serverUnknown, "← from none still picks the server error")
    var controls = SandboxControls()
    controls.failures[.purchase] = SimulatedFailure(error: try #require(StoreKitError(parsing: "networkError")))
    let state = makeState(controls: controls)
    #expect(SettingsItem.failure(.purchase).value(in: state) == "networkError (StoreKit 2; SKError 7)")
  }
}
