import Dispatch
import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// End to end through keys: real PaymentQueue (TestStore), the runtime, rendered frames.
@MainActor
@Suite struct AppRuntimeTests {
  private func type(_ runtime: AppRuntime, _ text: String) {
    for action in typing(text) { runtime.send(action) }
  }

  /// Moves the Store selection to `product`.
  private func select(_ product: Product.ID, _ runtime: AppRuntime) throws {
    let row = try #require(runtime.state.row(of: product))
    press(runtime, .char("1"), .home)
    for _ in 0..<row { press(runtime, .down) }
  }

  /// The runtime keeps one price memo for its frames, so a price is formatted once per run.
  @Test func framesShareTheRuntimesPriceMemo() throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    #expect(runtime.prices.count == 0)
    let first = runtime.render()
    let remembered = runtime.prices.count
    #expect(remembered > 0)
    press(runtime, .down)
    #expect(runtime.render().plainText != first.plainText)
    #expect(runtime.prices.count == remembered)
  }

  @Test func buyANonConsumableThroughTheSheet() throws {
    let store = try TestStore(dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    try select(FixtureCatalog.removeAds, runtime)
    press(runtime, .enter)
    #expect(runtime.render().plainText.contains("Do you want to buy one Remove Ads for $1.99?"))
    #expect(runtime.state.isBusy)
    press(runtime, .char("y"))
    #expect(runtime.state.sheet == nil)
    #expect(!runtime.state.isBusy)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .owned)
    #expect(try store.queue.entitlements().owns(FixtureCatalog.removeAds))
    #expect(try store.ledger.load().transactions.last?.state == .purchased)
    let screen = runtime.render().plainText
    #expect(screen.contains("owned"))
    #expect(screen.contains("Purchased Remove Ads (transaction 1000000001)."))
    #expect(store.observer.calls == [
      "updated 1000000001 \(FixtureCatalog.removeAds) purchasing", "updated 1000000001 \(FixtureCatalog.removeAds) purchased",
    ])
    // Buying again offers it for free.
    press(runtime, .enter)
    #expect(runtime.render().plainText.contains("You've already purchased this."))
    press(runtime, .escape)
  }

  @Test func buyAConsumableTwiceThenFinishBoth() throws {
    let store = try TestStore(dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    try select(FixtureCatalog.coins, runtime)
    press(runtime, .enter, .enter, .char("b"), .char("y"))
    #expect(runtime.state.status(of: FixtureCatalog.coins) == .bought(2))
    #expect(runtime.render().plainText.contains("bought ×2"))
    #expect(store.queue.unfinishedTransactions.count == 2)
    press(runtime, .char("2"), .home, .char("f"), .down, .char("f"))
    #expect(store.queue.unfinishedTransactions.isEmpty)
    #expect(runtime.state.transactions.allSatisfy { $0.isFinished })
    #expect(runtime.state.status(of: FixtureCatalog.coins) == .bought(2))
  }

  @Test func cancelAPurchase() throws {
    let store = try TestStore(dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .enter, .escape)
    let transaction = try #require(try store.queue.transaction(PaymentTransaction.ID(1_000_000_001)))
    #expect(transaction.state == .failed)
    #expect(transaction.error == .paymentCancelled)
    #expect(runtime.state.notice?.text == "Purchase of Remove Ads failed: paymentCancelled (SKError 2).")
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .none)
    // Every callback, sheets included, in delivery order.
    #expect(runtime.state.log.count == 4)
    #expect(runtime.state.log[0].contains("purchasing"))
    #expect(runtime.state.log[1].contains("sheetPresented"))
    #expect(runtime.state.log[2].contains("sheetDismissed"))
    #expect(runtime.state.log[3].contains("failed (queue 1000000001, no transactionIdentifier, quantity 1) error paymentCancelled (2)"))
  }

  @Test func askToBuyThenApproveFromTheTransactionsPane() throws {
    let store = try TestStore(dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("3"))
    let row = try #require(SettingsItem.all.firstIndex(of: .askToBuy))
    for _ in 0..<row { press(runtime, .down) }
    press(runtime, .enter)
    #expect(store.queue.controls.askToBuy)
    try select(FixtureCatalog.removeAds, runtime)
    press(runtime, .enter, .enter)
    #expect(runtime.state.sheet == .askToBuy(productName: "Remove Ads"))
    #expect(runtime.render().plainText.contains("A request has been sent."))
    press(runtime, .enter)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .deferred)
    press(runtime, .char("2"), .end, .char("a"))
    #expect(try store.queue.transaction(PaymentTransaction.ID(1_000_000_001))?.state == .purchased)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .owned)
    #expect(runtime.state.lastRefreshedRows == [0])
  }

  @Test func declineAskToBuy() throws {
    let store = try TestStore()
    try store.queue.set(.askToBuy(true))
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("b"), .escape, .char("2"), .char("d"))
    // B12: the app hears nothing; the transaction stays deferred and the notice says why.
    #expect(try store.queue.transaction(PaymentTransaction.ID(1_000_000_001))?.state == .deferred)
    #expect(runtime.state.notice?.text.contains("declined") == true)
  }

  @Test func restorePurchases() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.removeAds)
    try store.buy(FixtureCatalog.coins)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("r"))
    #expect(!runtime.state.isBusy)
    #expect(runtime.state.notice?.text == "Restore finished: 1 restored.")
    #expect(runtime.state.transactions.last?.state == .restored)
    #expect(runtime.state.log.count == 2)
  }

  @Test func restoreWhenSignedOutAsksForSignInFirst() throws {
    let store = try TestStore(account: nil)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("r"))
    #expect(runtime.state.sheet == .signIn(SignInSheet(purpose: .restore)))
    press(runtime, .escape)
    #expect(!runtime.state.isBusy)
    #expect(runtime.state.notice?.text == "Restore failed: paymentCancelled (SKError 2).")
  }

  @Test func refundFromTheTransactionsPane() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.removeAds)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .owned)
    press(runtime, .char("2"), .char("x"))
    #expect(try store.queue.transaction(PaymentTransaction.ID(1_000_000_001))?.revocationDate != nil)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .refunded)
    #expect(try !store.queue.entitlements().owns(FixtureCatalog.removeAds))
    press(runtime, .char("x"))
    #expect(runtime.state.notice?.text == "Transaction 1000000001 cannot be refunded: it was already refunded.")
  }

  @Test func signInThroughTheSheetThenBuy() throws {
    let store = try TestStore(account: nil, dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    #expect(runtime.render().plainText.contains("Not signed in"))
    press(runtime, .enter)
    #expect(runtime.state.sheet == .signIn(SignInSheet(purpose: .purchase(PaymentTransaction.ID(1_000_000_001)))))
    type(runtime, "alice")
    press(runtime, .tab)
    type(runtime, "pw")
    press(runtime, .enter)
    #expect(store.queue.currentAccount == "alice")
    #expect(runtime.state.account == "alice")
    #expect(runtime.render().plainText.contains(" alice "))
    #expect(runtime.render().plainText.contains("Do you want to buy one Remove Ads for $1.99?"))
    press(runtime, .char("y"))
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .owned)
    #expect(runtime.state.transactions.map(\.account) == ["alice"])
  }

  @Test func aWrongPasswordKeepsTheSheetUpWithTheReason() throws {
    let store = try TestStore(account: nil)
    try store.queue.signIn("bob", password: "right")
    try store.queue.signOut()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("i"))
    type(runtime, "bob")
    press(runtime, .tab)
    type(runtime, "wrong")
    press(runtime, .enter)
    guard case .signIn(let form) = runtime.state.sheet else {
      Issue.record("the sign-in sheet should stay up")
      return
    }
    #expect(form.error == "Wrong password for sandbox account 'bob'.")
    #expect(store.queue.currentAccount == nil)
    type(runtime, "right")
    press(runtime, .enter)
    #expect(runtime.state.sheet == nil)
    #expect(runtime.state.account == "bob")
  }

  @Test func signOutAndSwitchAccountsReloadTheirHistories() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.removeAds)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("3"), .down, .enter)
    #expect(store.queue.currentAccount == nil)
    #expect(runtime.state.transactions.isEmpty)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .none)
    press(runtime, .char("i"))
    type(runtime, "tester")
    press(runtime, .enter, .enter)
    #expect(runtime.state.account == "tester")
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .owned)
  }

  @Test func relaunchRedeliversUnfinishedTransactions() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.coins)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("L"))
    #expect(runtime.state.log.count == 1)
    #expect(runtime.state.log[0].contains("updatedTransactions: com.example.coins100 purchased"))
    #expect(runtime.state.notice?.text == "Relaunched: 1 unfinished transactions delivered again.")
  }

  @Test func clearPurchaseHistoryAfterConfirming() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.removeAds)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("3"))
    let row = try #require(SettingsItem.all.firstIndex(of: .clearHistory))
    for _ in 0..<row { press(runtime, .down) }
    press(runtime, .enter)
    #expect(runtime.render().plainText.contains("Remove every transaction of 'tester'?"))
    press(runtime, .char("y"))
    #expect(try store.queue.history().isEmpty)
    #expect(runtime.state.transactions.isEmpty)
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .none)
  }

  @Test func subscriptionLifecycleFromTheTransactionManager() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.monthly)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    guard case .renews = runtime.state.status(of: FixtureCatalog.monthly) else {
      Issue.record("expected renews, got \(runtime.state.status(of: FixtureCatalog.monthly))")
      return
    }
    press(runtime, .char("2"), .char("A"))
    guard case .expires = runtime.state.status(of: FixtureCatalog.monthly) else {
      Issue.record("expected expires after auto-renew off, got \(runtime.state.status(of: FixtureCatalog.monthly))")
      return
    }
    press(runtime, .char("A"), .char("N"))
    #expect(runtime.state.transactions.count == 2)
    #expect(runtime.state.transactions.last?.reason == .renewal)
    press(runtime, .char("E"))
    #expect(runtime.state.status(of: FixtureCatalog.monthly) == .expired)
  }

  @Test func clockKeysAndTicksMoveTheVirtualClock() throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("+"))
    #expect(store.queue.now == TestStore.start.addingTimeInterval(3_600))
    #expect(runtime.state.clock == store.queue.now)
    let wall = Date(timeIntervalSince1970: 5_000)
    runtime.tick(now: wall)
    runtime.tick(now: wall.addingTimeInterval(0.6))
    #expect(store.queue.now == TestStore.start.addingTimeInterval(3_600))
    runtime.tick(now: wall.addingTimeInterval(2.5))
    #expect(store.queue.now == TestStore.start.addingTimeInterval(3_602))
    #expect(runtime.render().plainText.contains("Clock 2026-01-01 01:00:02 UTC"))
  }

  @Test func aMonthlySubscriptionRenewsWhenTheClockPassesItsEnd() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.monthly)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("]"))
    for _ in 0..<7 { press(runtime, .char("]")) }
    #expect(runtime.state.transactions.contains { $0.reason == .renewal })
    #expect(runtime.state.notice?.text.hasPrefix("Renewed Premium Monthly") == true)
  }

  @Test func quitAsksWhileAPurchaseIsInFlight() throws {
    let store = try TestStore(dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .enter, .char("q"))
    #expect(!runtime.wantsQuit)
    #expect(runtime.state.sheet == .purchase(PurchaseSheet(
      transaction: PaymentTransaction.ID(1_000_000_001), product: FixtureCatalog.removeAds, productName: "Remove Ads",
      quantity: 1, price: "$1.99", alreadyOwned: false)))
    press(runtime, .escape, .char("q"))
    #expect(runtime.wantsQuit)
  }

  @Test func relaunchWithTheSheetUpBringsTheSheetBack() throws {
    let store = try TestStore(dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .enter)
    // The app dies with the sheet up (the L key is the sheet's while it shows): on relaunch the
    // payment is still purchasing and its sheet comes back.
    try store.queue.relaunch()
    #expect(runtime.state.log.count == 4)
    guard case .purchase = runtime.state.sheet else {
      Issue.record("expected the purchase sheet again, got \(String(describing: runtime.state.sheet))")
      return
    }
    #expect(runtime.state.isBusy)
    press(runtime, .escape, .char("q"))
    #expect(runtime.wantsQuit)
  }

  @Test func exportTheJWSOfATransaction() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.removeAds)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-tuiapp-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let runtime = try AppRuntime(queue: store.queue, size: standardSize, exportDirectory: folder)
    press(runtime, .char("2"), .char("e"), .enter)
    let written = try String(contentsOf: folder.appendingPathComponent("transaction-1000000001.jws"), encoding: .utf8)
    #expect(written == (try store.queue.transaction(PaymentTransaction.ID(1_000_000_001))?.signedTransaction ?? "none") + "\n")
    #expect(runtime.state.notice?.text.hasPrefix("Saved the JWS of transaction 1000000001 to") == true)
    press(runtime, .char("e"))
    for _ in 0..<40 { press(runtime, .backspace) }
    type(runtime, "/nonexistent-dir/x.jws")
    press(runtime, .enter)
    #expect(runtime.state.notice?.kind == .error)
    #expect(runtime.state.notice?.text.contains("Could not write '/nonexistent-dir/x.jws'") == true)
  }

  @Test func settingsChangesReachTheEngine() throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    press(runtime, .char("3"))
    let row = try #require(SettingsItem.all.firstIndex(of: .failure(.purchase)))
    for _ in 0..<row { press(runtime, .down) }
    press(runtime, .right, .right, .right)
    #expect(store.queue.controls.failures[.purchase]?.error == .paymentCancelled)
    press(runtime, .char("1"), .char("b"))
    #expect(runtime.state.notice?.text == "Purchase of Remove Ads failed: paymentCancelled (SKError 2).")
  }

  @Test func eventsDeliveredOnTheMainQueueAreHandledInOrder() async throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize, executor: .queue(.main))
    runtime.send(.key(.char("b")))
    // Nothing has arrived yet: the bus hops onto the main queue.
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .none)
    await withCheckedContinuation { continuation in
      DispatchQueue.main.async { continuation.resume() }
    }
    #expect(runtime.state.status(of: FixtureCatalog.removeAds) == .owned)
    #expect(runtime.state.log.count == 2)
    runtime.stop()
    #expect(store.queue.bus.subscriberCount(for: StoreEvent.self) == 0)
  }
}
