import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

@Suite struct AppReducerEngineTests {
  private var coinsRow: Int { 1 }

  @Test func aPurchaseNotificationRefreshesOnlyThatRow() {
    var state = makeState(transactions: [
      makeTransaction(1, FixtureCatalog.removeAds, kind: .nonConsumable, state: .purchased, finished: true)
    ])
    let before = state.statuses
    let purchased = makeTransaction(2, FixtureCatalog.coins, kind: .consumable, state: .purchased)
    step(&state, [.putTransaction(purchased)], .transactionsUpdated([purchased]))
    #expect(state.lastRefreshedRows == [coinsRow])
    // The runtime reads the ledger's count after a commit that touched a consumable.
    send(&state, [.consumablesCounted([FixtureCatalog.coins: 1])])
    #expect(state.lastRefreshedRows == [state.row(of: FixtureCatalog.coins)].compactMap { $0 })
    #expect(state.lastRefreshedRows == [coinsRow])
    #expect(state.status(of: FixtureCatalog.coins) == .bought(1))
    var others = state.statuses
    others[FixtureCatalog.coins] = nil
    #expect(others == before)
    #expect(state.status(of: FixtureCatalog.removeAds) == .owned)
  }

  @Test func statusesFollowATransactionThroughItsStates() {
    var state = makeState()
    var transaction = makeTransaction(2, FixtureCatalog.removeAds, kind: .nonConsumable, state: .purchasing)
    step(&state, [.putTransaction(transaction)], .transactionsUpdated([transaction]))
    #expect(state.status(of: FixtureCatalog.removeAds) == .purchasing)
    #expect(state.inFlight == [transaction.id])
    #expect(state.isBusy)
    transaction.state = .deferred
    step(&state, [.putTransaction(transaction)], .transactionsUpdated([transaction]))
    #expect(state.status(of: FixtureCatalog.removeAds) == .deferred)
    #expect(state.inFlight.isEmpty)
    transaction.state = .purchased
    step(&state, [.putTransaction(transaction)], .transactionsUpdated([transaction]))
    #expect(state.status(of: FixtureCatalog.removeAds) == .owned)
    #expect(state.notice == Notice("Purchased Remove Ads (transaction 2). The app finishes manually: f in Transactions (2).", kind: .success))
    transaction.isFinished = true
    step(&state, [.putTransaction(transaction)], .transactionsRemoved([transaction]))
    #expect(state.transaction(transaction.id)?.isFinished == true)
    #expect(state.notice?.text == "Finished transaction 2 (Remove Ads).")
    #expect(state.lastRefreshedRows == [0])
    transaction.revocationDate = TestStore.start
    step(&state, [.putTransaction(transaction)], .transactionRevoked(transaction))
    #expect(state.status(of: FixtureCatalog.removeAds) == .refunded)
    #expect(state.notice?.text == "Refunded Remove Ads (transaction 2).")
  }

  @Test func aFailedPurchaseNamesTheSKErrorAndCode() {
    var state = makeState()
    var failed = makeTransaction(3, FixtureCatalog.coins, kind: .consumable, state: .failed)
    failed.error = .paymentCancelled
    step(&state, [.putTransaction(failed)], .transactionsUpdated([failed]))
    #expect(state.notice == Notice("Purchase of 100 Coins failed: paymentCancelled (SKError 2).", kind: .error))
    failed.id = PaymentTransaction.ID(4)
    failed.error = .unknown
    failed.needsResolution = true
    step(&state, [.putTransaction(failed)], .transactionsUpdated([failed]))
    #expect(state.notice?.text.hasPrefix("Purchase of 100 Coins was interrupted: unknown (SKError 0)") == true)
    failed.id = PaymentTransaction.ID(5)
    failed.error = .serverUnknown
    failed.needsResolution = false
    step(&state, [.putTransaction(failed)], .transactionsUpdated([failed]))
    #expect(state.notice?.text == "Purchase of 100 Coins failed: unknownServerError (SSServerErrorDomain 5002).")
  }

  @Test func transactionsOfOtherAccountsAreIgnored() {
    var state = makeState()
    var other = makeTransaction(9, FixtureCatalog.coins, kind: .consumable, state: .purchased)
    other.account = "someone-else"
    step(&state, [.putTransaction(other)], .transactionsUpdated([other]))
    #expect(state.transactions.isEmpty)
    #expect(state.lastRefreshedRows.isEmpty)
  }

  @Test func restoreEventsEndTheBusyIndicator() {
    var state = makeState()
    send(&state, .key(.char("r")))
    send(&state, .engine(.restoreFinished(restoredCount: 2)))
    #expect(!state.isBusy)
    #expect(state.notice?.text == "Restore finished: 2 restored.")
    send(&state, .key(.char("r")))
    send(&state, .engine(.restoreFailed(.cloudServiceNetworkConnectionFailed)))
    #expect(!state.isBusy)
    #expect(state.notice == Notice("Restore failed: cloudServiceNetworkConnectionFailed (SKError 7).", kind: .error))
  }

  @Test func promptsOpenAndCloseSheets() {
    var state = makeState()
    send(&state, .engine(.promptPresented(.confirm(
      transaction: PaymentTransaction.ID(1), product: FixtureCatalog.removeAds, quantity: 1, alreadyOwned: true,
      price: TestStore.listPrice(FixtureCatalog.removeAds, quantity: 1)))))
    #expect(state.sheet == .purchase(PurchaseSheet(
      transaction: PaymentTransaction.ID(1), product: FixtureCatalog.removeAds, productName: "Remove Ads", quantity: 1,
      price: "$1.99", alreadyOwned: true)))
    send(&state, .engine(.promptDismissed))
    #expect(state.sheet == nil)
    send(&state, .engine(.promptPresented(.signIn(purpose: .purchase(PaymentTransaction.ID(1))))))
    #expect(state.sheet == .signIn(SignInSheet(purpose: .purchase(PaymentTransaction.ID(1)), account: "tester")))
    send(&state, .engine(.promptDismissed))
    #expect(state.sheet == nil)
    // The app's own sheets are not the engine's to dismiss.
    send(&state, .key(.char("?")), .engine(.promptDismissed))
    #expect(state.sheet == .help(firstRow: 0))
  }

  @Test func aConsumableSheetShowsTheTotalForTheQuantity() {
    var state = makeState()
    send(&state, .engine(.promptPresented(.confirm(
      transaction: PaymentTransaction.ID(1), product: FixtureCatalog.coins, quantity: 3, alreadyOwned: false,
      price: TestStore.listPrice(FixtureCatalog.coins, quantity: 3)))))
    guard case .purchase(let sheet) = state.sheet else {
      Issue.record("expected the purchase sheet")
      return
    }
    #expect(sheet.price == "$2.97")
    #expect(render(state).plainText.contains("Do you want to buy 3 100 Coins for $2.97?"))
  }

  @Test func accountAndControlsChangesShowInTheHeader() {
    var state = makeState()
    step(&state, [.setCurrentAccount(nil)], .accountChanged(nil))
    #expect(state.account == nil)
    #expect(render(state).plainText.contains("Not signed in"))
    var controls = state.controls
    controls.storefront = "DEU"
    controls.locale = "ko_KR"
    controls.timeRate = 1005
    send(&state, .engine(.controlsChanged(controls)))
    let text = render(state).plainText
    #expect(text.contains("DEU · ko_KR"))
    #expect(text.contains("Time rate: every-2s"))
    #expect(text.contains("광고 제거"))
  }

  @Test func subscriptionStatusChangesRefreshTheirRow() throws {
    var state = makeState()
    var transaction = makeTransaction(1, FixtureCatalog.monthly, kind: .autoRenewableSubscription, state: .purchased)
    transaction.expiresDate = TestStore.start.addingTimeInterval(3600)
    step(&state, [.putTransaction(transaction)], .transactionsUpdated([transaction]))
    let grace = try subscriptionRecord(original: transaction.id, status: .inGracePeriod, autoRenew: true)
    step(&state, [.putSubscription(grace)], .subscriptionChanged(grace, reason: "billing issue"))
    #expect(state.status(of: FixtureCatalog.monthly) == .inGracePeriod)
    #expect(state.lastRefreshedRows == [3])
    let retry = try subscriptionRecord(original: transaction.id, status: .inBillingRetry, autoRenew: true)
    step(&state, [.putSubscription(retry)], .subscriptionChanged(retry, reason: "grace period ended"))
    #expect(state.status(of: FixtureCatalog.monthly) == .billingRetry)
    #expect(state.lastRefreshedRows == [3])
    #expect(state.notice?.text == "Premium Monthly: inBillingRetry (grace period ended).")
    let off = try subscriptionRecord(original: transaction.id, status: .subscribed, autoRenew: false)
    step(&state, [.putSubscription(off)], .subscriptionChanged(off, reason: "auto-renew off"))
    #expect(state.status(of: FixtureCatalog.monthly) == .expires(off.expiresDate))
    #expect(ProductStatus.expires(off.expiresDate).text == "expires 2026-01-01 01:00")
    let expired = try subscriptionRecord(original: transaction.id, status: .expired, autoRenew: false)
    step(&state, [.putSubscription(expired)], .subscriptionChanged(expired, reason: "auto-renew off"))
    #expect(state.status(of: FixtureCatalog.monthly) == .expired)
  }

  @Test func theClockExpiresNonRenewingRowsWhenItPassesThem() {
    var pass = makeTransaction(1, FixtureCatalog.seasonPass, kind: .nonRenewingSubscription, state: .purchased)
    let end = TestStore.start.addingTimeInterval(86_400)
    pass.expiresDate = end
    var state = makeState(transactions: [pass])
    #expect(state.status(of: FixtureCatalog.seasonPass) == .expires(end))
    step(&state, [.setClock(TestStore.start.addingTimeInterval(3_600))], .clockAdvanced(TestStore.start.addingTimeInterval(3_600)))
    #expect(state.lastRefreshedRows.isEmpty)
    step(&state, [.setClock(end.addingTimeInterval(1))], .clockAdvanced(end.addingTimeInterval(1)))
    #expect(state.status(of: FixtureCatalog.seasonPass) == .expired)
    #expect(state.lastRefreshedRows == [2])
    #expect(render(state).plainText.contains("Clock 2026-01-02 00:00:01 UTC"))
  }

  @Test func misuseShowsTheEnginesMessage() {
    var state = makeState()
    send(&state, .engine(.misuse(.alreadyFinished(PaymentTransaction.ID(5)))))
    #expect(state.notice == Notice("Transaction 5 is already finished; finishing it again does nothing.", kind: .error))
    #expect(state.log.count == 1)
  }

  // B27: finishing a purchasing transaction crashes a real app; the notice says so, in red.
  @Test func finishingAPurchasingTransactionShowsTheCrashItWouldBe() {
    var state = makeState()
    send(&state, .engine(.misuse(.cannotFinishPurchasing(PaymentTransaction.ID(5)))))
    #expect(state.notice?.kind == .error)
    #expect(state.notice?.text == "The app would have crashed: finishTransaction on transaction 5, still purchasing, raises NSInternalInconsistencyException ('Cannot finish a purchasing transaction'). Answer its sheet first (Enter to buy, Esc to cancel).")
  }

  @Test func productsAndStorePaymentEventsAreLogged() {
    var state = makeState()
    send(
      &state, .engine(.productsResponse(request: 1, products: [FixtureCatalog.coins], invalidIdentifiers: ["nope"])),
      .engine(.shouldAddStorePayment(FixtureCatalog.coins)),
      .engine(.productsRequestFailed(request: 2, error: .unknown)))
    #expect(state.log.count == 3)
    #expect(state.notice?.text == "Products request failed: unknown (SKError 0).")
  }

  @Test func theLogIsACappedRingThatFollowsTheTail() {
    var state = AppState(
      catalog: FixtureCatalog.make(), size: standardSize,
      snapshot: AccountSnapshot(account: "tester", clock: TestStore.start), logCapacity: 10)
    for id in 1...25 {
      send(&state, .engine(.transactionsUpdated([makeTransaction(UInt64(id), FixtureCatalog.coins, kind: .consumable, state: .purchasing)])))
    }
    #expect(state.log.count == 10)
    #expect(state.log.dropped == 15)
    #expect(state.log[9].contains("(queue 25,"))
    #expect(state.log[0].contains("(queue 16,"))
    #expect(state.log[0].hasPrefix("[2026-01-01T00:00:00Z] updatedTransactions: com.example.coins100 purchasing"))
    send(&state, .key(.char("4")))
    #expect(state.logFollowsTail)
    send(&state, .key(.up))
    #expect(!state.logFollowsTail)
    send(&state, .key(.end))
    #expect(state.logFollowsTail)
    send(&state, .key(.right))
    #expect(state.logColumn == 20)
    send(&state, .key(.left), .key(.left))
    #expect(state.logColumn == 0)
  }

  @Test func accountLoadedRebuildsEveryStatus() {
    var state = makeState(transactions: [makeTransaction(1, FixtureCatalog.removeAds, kind: .nonConsumable, state: .purchased)])
    #expect(state.status(of: FixtureCatalog.removeAds) == .owned)
    send(&state, .accountLoaded(AccountSnapshot(account: "other", transactions: [], clock: TestStore.start)))
    #expect(state.status(of: FixtureCatalog.removeAds) == .none)
    #expect(state.lastRefreshedRows == [0])
    #expect(state.account == "other")
  }

  @Test func commandFailuresShowAndEndARestore() {
    var state = makeState()
    send(&state, .key(.char("r")), .commandFailed(.restore, message: "The ledger could not be written."))
    #expect(!state.isRestoring)
    #expect(state.notice == Notice("The ledger could not be written.", kind: .error))
    send(&state, .commandSucceeded(.exportJWS(PaymentTransaction.ID(1), path: "a"), message: "Saved."))
    #expect(state.notice == Notice("Saved.", kind: .success))
  }
}
