import StoreEngine
import StorefrontTestSupport
import XCTest

final class PaymentQueueTests: XCTestCase {
  typealias F = FixtureCatalog

  func testConsumablePurchaseGoesPurchasingThenPurchasedAndIsCommittedFirst() throws {
    let store = try TestStore()
    let commitsBefore = store.ledger.commitCount
    let transaction = try store.buy(F.coins, quantity: 3)
    XCTAssertEqual(transaction.state, .purchased)
    XCTAssertEqual(transaction.quantity, 3)
    XCTAssertEqual(transaction.price, Decimal(string: "2.97"))
    XCTAssertEqual(TestStore.payload(of: transaction.signedTransaction)["transactionId"] as? String, "1000000001")
    XCTAssertEqual(store.observer.calls, ["updated 1000000001 com.example.coins100 purchasing", "updated 1000000001 com.example.coins100 purchased"])
    // One command, one step, one commit: `purchasing` and `purchased` are committed together
    // before either callback (it used to be one commit each).
    XCTAssertEqual(store.ledger.commitCount, commitsBefore + 1)
    XCTAssertEqual(try store.ledger.load().transactions.last?.state, .purchased)
  }

  func testConsumablesCanBeBoughtAgainAndCount() throws {
    let store = try TestStore()
    try store.buy(F.coins)
    try store.buy(F.coins, quantity: 2)
    XCTAssertEqual(try store.queue.entitlements().consumableCounts[F.coins], 3)
  }

  func testDialogsWaitForConfirmAndCancelFailsWithPaymentCancelled() throws {
    let store = try TestStore(dialogs: true)
    let id = try store.queue.add(Payment(productID: F.removeAds))
    XCTAssertEqual(store.queue.prompt, .confirm(transaction: id, product: F.removeAds, quantity: 1, alreadyOwned: false, price: TestStore.listPrice(F.removeAds, quantity: 1)))
    XCTAssertEqual(try store.queue.transaction(id)?.state, .purchasing)
    try store.queue.cancel()
    XCTAssertEqual(try store.queue.transaction(id)?.state, .failed)
    XCTAssertEqual(try store.queue.transaction(id)?.error, .paymentCancelled)
    XCTAssertNil(store.queue.prompt)
    XCTAssertThrowsError(try store.queue.confirm()) { XCTAssertEqual($0 as? EngineError, .noPrompt) }
  }

  func testSecondPaymentWaitsBehindTheFirstSheet() throws {
    let store = try TestStore(dialogs: true)
    let first = try store.queue.add(Payment(productID: F.coins))
    let second = try store.queue.add(Payment(productID: F.removeAds))
    XCTAssertEqual(store.queue.prompt, .confirm(transaction: first, product: F.coins, quantity: 1, alreadyOwned: false, price: TestStore.listPrice(F.coins, quantity: 1)))
    try store.queue.confirm()
    XCTAssertEqual(store.queue.prompt, .confirm(transaction: second, product: F.removeAds, quantity: 1, alreadyOwned: false, price: TestStore.listPrice(F.removeAds, quantity: 1)))
    try store.queue.confirm()
    XCTAssertEqual(try store.queue.transaction(second)?.state, .purchased)
  }

  func testSignedOutPurchaseAsksToSignInThenConfirms() throws {
    let store = try TestStore(account: nil, dialogs: true)
    let id = try store.queue.add(Payment(productID: F.removeAds))
    XCTAssertEqual(store.queue.prompt, .signIn(purpose: .purchase(id)))
    try store.queue.signIn("alice", password: "pw")
    XCTAssertEqual(store.queue.prompt, .confirm(transaction: id, product: F.removeAds, quantity: 1, alreadyOwned: false, price: TestStore.listPrice(F.removeAds, quantity: 1)))
    try store.queue.confirm()
    XCTAssertEqual(try store.queue.transaction(id)?.account, "alice")
    XCTAssertTrue(try store.queue.entitlements().owns(F.removeAds))
  }

  func testWrongPasswordIsRejectedAndPasswordNotStoredInClear() throws {
    let store = try TestStore(account: nil)
    try store.queue.signIn("bob", password: "secret")
    try store.queue.signOut()
    XCTAssertThrowsError(try store.queue.signIn("bob", password: "nope")) {
      XCTAssertEqual($0 as? EngineError, .wrongPassword(account: "bob"))
    }
    XCTAssertNil(store.queue.currentAccount)
    let stored = try XCTUnwrap(store.ledger.load().accounts.first { $0.name == "bob" })
    XCTAssertNotEqual(stored.passwordHash?.hash, "secret")
    try store.queue.signIn("bob", password: "secret")
    XCTAssertEqual(store.queue.currentAccount, "bob")
  }

  func testAlreadyOwnedNonConsumableIsFreeAndLinksToTheFirstPurchase() throws {
    let store = try TestStore(dialogs: true)
    let first = try store.queue.add(Payment(productID: F.removeAds))
    try store.queue.confirm()
    let again = try store.queue.add(Payment(productID: F.removeAds))
    XCTAssertEqual(store.queue.prompt, .confirm(transaction: again, product: F.removeAds, quantity: 1, alreadyOwned: true, price: TestStore.free))
    try store.queue.confirm()
    let transaction = try XCTUnwrap(try store.queue.transaction(again))
    XCTAssertEqual(transaction.state, .purchased)
    XCTAssertEqual(transaction.originalID, first)
    XCTAssertEqual(transaction.price, 0)
  }

  func testRefusedPayments() throws {
    let store = try TestStore()
    try store.queue.set(.canMakePayments(false))
    XCTAssertEqual(try store.buy(F.coins).error, .paymentNotAllowed)
    try store.queue.set(.canMakePayments(true))
    XCTAssertEqual(try store.buy("com.example.nope").error, .paymentInvalid)
    XCTAssertEqual(try store.buy(F.removeAds, quantity: 2).error, .paymentInvalid)
  }

  func testFinishRemovesAndDoubleFinishIsReportedNotCrashing() throws {
    let store = try TestStore()
    let transaction = try store.buy(F.coins)
    XCTAssertEqual(store.queue.unfinishedTransactions.map(\.id), [transaction.id])
    try store.queue.finish(transaction.id)
    XCTAssertEqual(store.queue.unfinishedTransactions, [])
    XCTAssertEqual(store.observer.calls.last, "removed \(transaction.id)")
    XCTAssertThrowsError(try store.queue.finish(transaction.id)) {
      XCTAssertEqual($0 as? EngineError, .alreadyFinished(transaction.id))
    }
    XCTAssertThrowsError(try store.queue.finish(PaymentTransaction.ID(42))) {
      XCTAssertEqual($0 as? EngineError, .unknownTransaction("42"))
    }
  }

  func testFinishingAPurchasingTransactionIsAnError() throws {
    let store = try TestStore(dialogs: true)
    let id = try store.queue.add(Payment(productID: F.coins))
    XCTAssertThrowsError(try store.queue.finish(id)) { XCTAssertEqual($0 as? EngineError, .cannotFinishPurchasing(id)) }
    XCTAssertEqual(try store.queue.transaction(id)?.isFinished, false)
  }

  func testAskToBuyApproveAndDecline() throws {
    let store = try TestStore()
    try store.queue.set(.askToBuy(true))
    let approved = try store.buy(F.removeAds)
    XCTAssertEqual(approved.state, .deferred)
    XCTAssertFalse(try store.queue.entitlements().owns(F.removeAds))
    try store.queue.approve(approved.id)
    XCTAssertEqual(try store.queue.transaction(approved.id)?.state, .purchased)
    // B12: a decline tells the app nothing; the transaction stays deferred and can still be approved.
    let declined = try store.buy(F.coins)
    try store.queue.decline(declined.id)
    XCTAssertEqual(try store.queue.transaction(declined.id)?.state, .deferred)
    XCTAssertNil(try store.queue.transaction(declined.id)?.error)
    try store.queue.approve(declined.id)
    XCTAssertEqual(try store.queue.transaction(declined.id)?.state, .purchased)
    XCTAssertThrowsError(try store.queue.approve(declined.id)) { XCTAssertEqual($0 as? EngineError, .notDeferred(declined.id)) }
  }

  func testSlowApprovalHappensWhenTheClockPassesTheDelay() throws {
    let store = try TestStore()
    try store.queue.set(.askToBuy(true))
    let deferred = try store.buy(F.removeAds)
    try store.queue.schedule(approve: true, deferred.id, after: 30)
    try store.queue.advance(by: 29)
    XCTAssertEqual(try store.queue.transaction(deferred.id)?.state, .deferred)
    try store.queue.advance(by: 1)
    XCTAssertEqual(try store.queue.transaction(deferred.id)?.state, .purchased)
  }

  func testInterruptedPurchaseFailsThenResolvesToANewPurchase() throws {
    let store = try TestStore()
    try store.queue.set(.interruptedPurchases(true))
    let interrupted = try store.buy(F.removeAds)
    XCTAssertEqual(interrupted.state, .failed)
    XCTAssertTrue(interrupted.needsResolution)
    let resolved = try store.queue.resolve(interrupted.id)
    XCTAssertNotEqual(resolved, interrupted.id)
    XCTAssertEqual(try store.queue.transaction(resolved)?.state, .purchased)
    XCTAssertThrowsError(try store.queue.resolve(interrupted.id)) { XCTAssertEqual($0 as? EngineError, .notInterrupted(interrupted.id)) }
  }

  func testSimulatedPurchaseErrorsIncludingServer5002() throws {
    let store = try TestStore()
    try store.queue.set(.failure(.purchase, SimulatedFailure(error: .serverUnknown)))
    let failed = try store.buy(F.coins)
    XCTAssertEqual(failed.error, StoreKitError(code: 5002, domain: "SSServerErrorDomain"))
    try store.queue.set(.failure(.purchase, SimulatedFailure(error: .unknown)))
    XCTAssertEqual(try store.buy(F.coins).error?.code, 0)
  }

  func testRestoreWithZeroSomeAndFailure() throws {
    let store = try TestStore()
    try store.queue.restoreCompletedTransactions()
    XCTAssertEqual(store.observer.calls, ["restoreFinished"])
    let owned = try store.buy(F.removeAds)
    try store.buy(F.coins)
    try store.buy(F.seasonPass)
    store.observer.calls.removeAll()
    try store.queue.restoreCompletedTransactions()
    XCTAssertEqual(store.observer.calls, ["updated 1000000004 \(F.removeAds) restored", "restoreFinished"])
    XCTAssertEqual(try store.queue.transaction(PaymentTransaction.ID(1_000_000_004))?.originalID, owned.id)
    try store.queue.set(.failure(.appStoreSync, SimulatedFailure(error: .cloudServiceNetworkConnectionFailed)))
    store.observer.calls.removeAll()
    try store.queue.restoreCompletedTransactions()
    XCTAssertEqual(store.observer.calls, ["restoreFailed cloudServiceNetworkConnectionFailed"])
  }

  func testObserversAreCalledInTheOrderAdded() throws {
    let store = try TestStore()
    let second = RecordingObserver()
    let log = OrderLog()
    let a = OrderObserver(name: "a", log: log)
    let b = OrderObserver(name: "b", log: log)
    store.queue.add(a)
    store.queue.add(b)
    store.queue.add(second)
    try store.buy(F.coins)
    XCTAssertEqual(log.entries, ["a", "b", "a", "b"])
    XCTAssertEqual(second.calls.count, 2)
    store.queue.remove(a)
    try store.buy(F.coins)
    XCTAssertEqual(log.entries.suffix(2), ["b", "b"])
  }

  func testRelaunchRedeliversUnfinishedUntilFinished() throws {
    let ledger = InMemoryLedgerStore()
    let store = try TestStore(ledger: ledger)
    let kept = try store.buy(F.removeAds)
    let done = try store.buy(F.coins)
    try store.queue.finish(done.id)
    store.observer.calls.removeAll()
    try store.queue.relaunch()
    XCTAssertEqual(store.observer.calls, ["updated \(kept.id) \(F.removeAds) purchased"])
    // A fresh process on the same ledger sees the same.
    let again = try TestStore(ledger: ledger, account: nil)
    try again.queue.launch()
    XCTAssertEqual(again.observer.calls, ["updated \(kept.id) \(F.removeAds) purchased"])
    try again.queue.finish(kept.id)
    again.observer.calls.removeAll()
    try again.queue.relaunch()
    XCTAssertEqual(again.observer.calls, [])
  }

  func testRelaunchWithASheetOpenBringsTheSheetBack() throws {
    let ledger = InMemoryLedgerStore()
    let store = try TestStore(ledger: ledger, dialogs: true)
    let id = try store.queue.add(Payment(productID: F.coins))
    try store.queue.relaunch()
    XCTAssertEqual(store.queue.prompt, .confirm(transaction: id, product: F.coins, quantity: 1, alreadyOwned: false, price: TestStore.listPrice(F.coins, quantity: 1)))
  }

  func testFailedLedgerWriteChangesNothingAndTellsNobody() throws {
    let store = try TestStore()
    store.ledger.failNextCommit = .writeFailed(path: "mem", reason: "disk full")
    XCTAssertThrowsError(try store.queue.add(Payment(productID: F.coins)))
    XCTAssertEqual(try store.queue.history(), [])
    XCTAssertEqual(store.observer.calls, [])
  }

  func testRefundRemovesEntitlementAndRecordsRevocation() throws {
    let store = try TestStore()
    let bought = try store.buy(F.removeAds)
    try store.queue.advance(by: 3600)
    try store.queue.refund(bought.id, reason: 1)
    let refunded = try XCTUnwrap(try store.queue.transaction(bought.id))
    XCTAssertEqual(refunded.revocationDate, TestStore.start.addingTimeInterval(3600))
    XCTAssertEqual(refunded.revocationReason, 1)
    XCTAssertFalse(try store.queue.entitlements().owns(F.removeAds))
    XCTAssertThrowsError(try store.queue.refund(bought.id))
  }

  func testAccountsHaveSeparateHistoriesAndClearHistory() throws {
    let store = try TestStore()
    try store.buy(F.removeAds)
    try store.queue.signIn("second")
    XCTAssertFalse(try store.queue.entitlements().owns(F.removeAds))
    try store.queue.signIn("tester")
    XCTAssertTrue(try store.queue.entitlements().owns(F.removeAds))
    try store.queue.clearPurchaseHistory()
    XCTAssertEqual(try store.queue.history(), [])
    XCTAssertEqual(try store.ledger.load().transactions, [])
  }

  func testProductsRequestWithInvalidIdsLatencyAndFailure() throws {
    let store = try TestStore()
    var responses: [ProductsResponse] = []
    try store.queue.requestProducts([F.coins.rawValue, "bogus"]) { if case .success(let r) = $0 { responses.append(r) } }
    XCTAssertEqual(responses.first?.products.map(\.id), [F.coins])
    XCTAssertEqual(responses.first?.invalidProductIdentifiers, ["bogus"])
    try store.queue.set(.productsLatency(2))
    try store.queue.requestProducts([F.coins.rawValue]) { if case .success(let r) = $0 { responses.append(r) } }
    XCTAssertEqual(responses.count, 1)
    try store.queue.advance(by: 2)
    XCTAssertEqual(responses.count, 2)
    try store.queue.set(.productsLatency(0)); try store.queue.set(.failure(.loadProducts, SimulatedFailure(error: .unknown)))
    var failure: StoreKitError?
    try store.queue.requestProducts([F.coins.rawValue]) { if case .failure(let e) = $0 { failure = e } }
    XCTAssertEqual(failure, .unknown)
  }

  func testProductsRequestCompletionGetsTheProducts() throws {
    let store = try TestStore()
    var response: ProductsResponse?
    try store.queue.requestProducts([F.yearly.rawValue]) { response = try? $0.get() }
    XCTAssertEqual(response?.products.map(\.id), [F.yearly])
  }

  func testSeededChanceIsDeterministic() throws {
    func outcomes() throws -> [Bool] {
      let store = try TestStore()
      try store.queue.set(.failure(.purchase, SimulatedFailure(error: .unknown, chance: 0.5)))
      return try (0..<20).map { _ in try store.buy(F.coins).state == .failed }
    }
    let first = try outcomes()
    XCTAssertEqual(first, try outcomes())
    XCTAssertTrue(first.contains(true) && first.contains(false))
  }
}

final class OrderLog { var entries: [String] = [] }

final class OrderObserver: PaymentTransactionObserver {
  let name: String
  let log: OrderLog
  init(name: String, log: OrderLog) { self.name = name; self.log = log }
  func updatedTransactions(_ transactions: [PaymentTransaction]) { log.entries.append(name) }
}

final class PaymentQueueControlTests: XCTestCase {
  typealias F = FixtureCatalog

  final class Refusing: PaymentTransactionObserver {
    func shouldAddStorePayment(for product: Product.ID) -> Bool { false }
  }

  func testStorePaymentAsksObserversAndRespectsNo() throws {
    let store = try TestStore()
    XCTAssertNotNil(try store.queue.startStorePayment(F.removeAds))
    let refusing = Refusing()
    store.queue.add(refusing)
    XCTAssertNil(try store.queue.startStorePayment(F.coins))
    XCTAssertEqual(try store.queue.history().count, 1)
  }

  func testSimulatedVerificationFailureBreaksTheSignature() throws {
    let store = try TestStore()
    try store.queue.set(.failure(.verification, SimulatedFailure(error: .unknown)))
    let signed = try XCTUnwrap(store.buy(F.removeAds).signedTransaction)
    XCTAssertEqual(signed.split(separator: ".").last.map(String.init), Data(repeating: 0, count: 64).base64URLEncoded)
    XCTAssertEqual(TestStore.payload(of: signed)["productId"] as? String, F.removeAds.rawValue)
    XCTAssertTrue(signed.hasSuffix(Data(repeating: 0, count: 64).base64URLEncoded))
  }

  func testOfferCodeRedeemFailureAppliesToCodeOffersOnly() throws {
    let code = SubscriptionOffer(kind: .code, id: "CODE1", paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .month))
    var catalog = F.make()
    var products = catalog.products
    if let index = products.firstIndex(where: { $0.id == F.yearly }) { products[index].subscription?.codeOffers = [code] }
    catalog = Catalog(products: products, subscriptionGroups: catalog.subscriptionGroups)
    let store = try TestStore(catalog: catalog)
    try store.queue.set(.failure(.offerCodeRedeem, SimulatedFailure(error: .paymentInvalid)))
    let id = try store.queue.add(Payment(productID: F.yearly, offerID: "CODE1"))
    XCTAssertEqual(try store.queue.transaction(id)?.error, .paymentInvalid)
    let plain = try store.queue.add(Payment(productID: F.yearly))
    XCTAssertEqual(try store.queue.transaction(plain)?.state, .purchased)
  }
}
