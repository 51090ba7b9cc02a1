import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

@MainActor
@Suite struct ViewsSnapshotTests {
  /// A store with a few purchases: a coin bought twice, ads removed, a monthly subscription.
  private func storeWithPurchases(catalog: Catalog = FixtureCatalog.make(), dialogs: Bool = false) throws -> (TestStore, AppRuntime) {
    let store = try TestStore(catalog: catalog, dialogs: dialogs)
    try store.buy(FixtureCatalog.coins)
    try store.buy(FixtureCatalog.coins)
    try store.buy(FixtureCatalog.removeAds)
    try store.buy(FixtureCatalog.monthly)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    return (store, runtime)
  }

  @Test func storeInEnglish() throws {
    let (_, runtime) = try storeWithPurchases()
    assertAppSnapshot(runtime.render(), named: "store-en")
  }

  @Test func storeInKorean() throws {
    let (store, runtime) = try storeWithPurchases(catalog: wideCatalog())
    try store.queue.set(.locale("ko_KR"))
    try store.queue.set(.storefront("KOR"))
    #expect(runtime.state.controls.locale == "ko_KR")
    assertAppSnapshot(runtime.render(), named: "store-ko")
  }

  @Test func storeWithWideNamesInJapaneseAt60Columns() throws {
    var state = makeState(catalog: wideCatalog(), size: AppLayout.minimumSize)
    var controls = state.controls
    controls.locale = "ja_JP"
    controls.storefront = "JPN"
    send(&state, .engine(.controlsChanged(controls)))
    assertAppSnapshot(render(state), named: "store-ja-60x16")
  }

  @Test func purchaseSheet() throws {
    let store = try TestStore(dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    runtime.send(.key(.down))
    runtime.send(.key(.enter))
    assertAppSnapshot(runtime.render(), named: "sheet-purchase")
  }

  @Test func alreadyPurchasedSheet() throws {
    let store = try TestStore(dialogs: true)
    try store.queue.set(.dialogs(false))
    try store.buy(FixtureCatalog.removeAds)
    try store.queue.set(.dialogs(true))
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    runtime.send(.key(.char("b")))
    assertAppSnapshot(runtime.render(), named: "sheet-already-purchased")
  }

  @Test func signInSheetMasksThePassword() throws {
    let store = try TestStore(account: nil, dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    runtime.send(.key(.enter))
    for action in typing("alice") { runtime.send(action) }
    runtime.send(.key(.tab))
    for action in typing("s3cret") { runtime.send(action) }
    let screen = runtime.render()
    #expect(!screen.plainText.contains("s3cret"))
    #expect(screen.plainText.contains("******"))
    assertAppSnapshot(screen, named: "sheet-sign-in")
  }

  @Test func askToBuySheet() throws {
    let store = try TestStore()
    try store.queue.set(.askToBuy(true))
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    runtime.send(.key(.char("b")))
    assertAppSnapshot(runtime.render(), named: "sheet-ask-to-buy")
  }

  @Test func transactionsPane() throws {
    let (store, runtime) = try storeWithPurchases()
    try store.queue.finish(PaymentTransaction.ID(1_000_000_001))
    try store.queue.set(.askToBuy(true))
    try store.buy(FixtureCatalog.seasonPass)
    runtime.send(.key(.enter))  // dismisses "Ask Permission"
    runtime.send(.key(.char("2")))
    assertAppSnapshot(runtime.render(), named: "transactions")
  }

  @Test func settingsPane() throws {
    let (_, runtime) = try storeWithPurchases()
    runtime.send(.key(.char("3")))
    runtime.send(.key(.down))
    runtime.send(.key(.down))
    runtime.send(.key(.enter))
    assertAppSnapshot(runtime.render(), named: "settings")
  }

  @Test func logPane() throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    runtime.send(.key(.char("b")))
    runtime.send(.key(.down))
    runtime.send(.key(.char("b")))
    runtime.send(.key(.char("r")))
    runtime.send(.key(.char("4")))
    assertAppSnapshot(runtime.render(), named: "log")
  }

  @Test func helpOverlay() throws {
    var state = makeState()
    send(&state, .key(.char("?")))
    assertAppSnapshot(render(state), named: "help")
    send(&state, .key(.end))
    assertAppSnapshot(render(state), named: "help-end")
  }

  @Test func jwsDetail() throws {
    var transaction = makeTransaction(1_000_000_001, FixtureCatalog.removeAds, kind: .nonConsumable, state: .purchased)
    transaction.signedTransaction = sampleJWS(transactionID: "1000000001")
    var state = makeState(transactions: [transaction])
    send(&state, .key(.char("2")), .key(.char("v")))
    assertAppSnapshot(render(state), named: "sheet-jws")
  }

  @Test func tinyTerminal() {
    let state = makeState(size: Size(width: 40, height: 10))
    assertAppSnapshot(render(state), named: "too-small")
    #expect(render(state).plainText.contains("Terminal too small — need 60×16"))
  }

  @Test func narrowTerminalStillSaysWhatSizeIsNeeded() {
    let text = render(makeState(size: Size(width: 24, height: 8))).plainText
    #expect(text.contains("Terminal too small"))
    #expect(text.contains("need 60×16"))
    #expect(text.contains("(now 24×8)"))
  }
}
