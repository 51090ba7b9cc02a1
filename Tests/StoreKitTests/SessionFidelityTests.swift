import Foundation
import StoreKit
import StoreKitTest
import StorefrontProcessTestSupport
import XCTest

/// StoreKitTest as Apple declares it (issue 34): errors with Apple's codes that bridge, simulated
/// failures that read back equal, Xcode's environment, the deprecated time rates, and a clock that
/// follows the wall clock while a test waits under an accelerated rate.
final class SessionFidelityTests: StoreKitTestCase {
  func testSKTestErrorHasApplesCodesAndBridgesAsApplesDoes() throws {
    XCTAssertEqual(SKTestError.Code.fileNotFound.rawValue, 4, "SKTestError.h")
    XCTAssertEqual(SKTestError.Code.noTransactionFound.rawValue, 6)
    XCTAssertEqual(SKTestError.Code.invalidAction.rawValue, 7)
    XCTAssertEqual(SKTestErrorDomain, "SKTestErrorDomain")
    do {
      _ = try SKTestSession(contentsOf: URL(fileURLWithPath: "/nonexistent/Products.storekit"))
      XCTFail("a missing file opened")
    } catch SKTestError.fileNotFound {
      // `catch SKTestError.fileNotFound` matches, as on Apple's platforms.
    } catch {
      XCTFail("not fileNotFound: \(error)")
    }
    session = try SKTestSession(contentsOf: Self.catalogURL)
    XCTAssertThrowsError(try session.refundTransaction(identifier: 4242)) { error in
      let bridged = error as NSError
      XCTAssertEqual(bridged.domain, SKTestErrorDomain)
      XCTAssertEqual(bridged.code, 6)
      XCTAssertTrue(bridged.localizedDescription.contains("4242"), bridged.localizedDescription)
      switch error {
      case SKTestError.noTransactionFound: break
      default: XCTFail("\(error) did not match SKTestError.noTransactionFound")
      }
    }
    let made = SKTestError(.invalidURL, userInfo: [NSLocalizedDescriptionKey: "bad"])
    XCTAssertEqual(made.code, .invalidURL)
    XCTAssertEqual(made.userInfo[NSLocalizedDescriptionKey] as? String, "bad")
    XCTAssertEqual(SKTestError(_nsError: made._nsError), made)
  }

  func testSimulatedErrorsReadBackEqualForEveryAPI() async throws {
    let purchase = await session.simulatedError(forAPI: .purchase)
    XCTAssertNil(purchase)
    try await session.setSimulatedError(.purchase(.invalidQuantity), forAPI: .purchase)
    let invalidQuantity = await session.simulatedError(forAPI: .purchase)
    XCTAssertEqual(invalidQuantity, .purchase(.invalidQuantity))
    XCTAssertNotEqual(invalidQuantity, .purchase(.productUnavailable))
    try await session.setSimulatedError(.generic(.notEntitled), forAPI: StoreKitLoadProductsAPI())
    let loadProducts = await session.simulatedError(forAPI: .loadProducts)
    XCTAssertEqual(loadProducts, .generic(.notEntitled))
    try await session.setSimulatedError(.verification(.invalidCertificateChain), forAPI: .verification)
    let verification = await session.simulatedError(forAPI: .verification)
    XCTAssertEqual(verification, .verification(.invalidCertificateChain), "the error that was set, not another")
    try await session.setSimulatedError(.refundRequest(.duplicateRequest), forAPI: .refundRequest)
    let refund = await session.simulatedError(forAPI: .refundRequest)
    XCTAssertEqual(refund, .refundRequest(.duplicateRequest))
    try await session.setSimulatedError(.generic(.unsupported), forAPI: .offerCodeRedeem)
    let offerCode = await session.simulatedError(forAPI: .offerCodeRedeem)
    XCTAssertEqual(offerCode, .generic(.unsupported))
    try await session.setSimulatedError(nil, forAPI: .purchase)
    let cleared = await session.simulatedError(forAPI: .purchase)
    XCTAssertNil(cleared)
    // What was set is what the API does: a products request now fails with it.
    do {
      _ = try await Product.products(for: [IDs.shopping])
      XCTFail("products loaded under a simulated error")
    } catch let error as StoreKitError {
      guard case .notEntitled = error else { return XCTFail("\(error)") }
    }
  }

  func testASimulatedVerificationErrorIsTheOneTheAppSees() async throws {
    try await session.setSimulatedError(.verification(.invalidCertificateChain), forAPI: .verification)
    let products = try await Product.products(for: [IDs.shopping])
    let product = try XCTUnwrap(products.first)
    guard case .success(.unverified(let transaction, let error)) = try await product.purchase() else {
      return XCTFail("the purchase verified under a simulated verification error")
    }
    XCTAssertEqual(error, .invalidCertificateChain)
    XCTAssertEqual(transaction.productID, IDs.shopping)
  }

  /// A purchase started on the App Store's page reaches a StoreKit 2 app as a purchase intent (and a
  /// StoreKit 1 observer as `shouldAddStorePayment`); the app buys it.
  func testAPurchaseStartedOnTheAppStoreIsAnIntentTheAppBuys() async throws {
    observer.addsStorePayments = false
    var intents = PurchaseIntent.intents.makeAsyncIterator()
    try session.startPurchaseFromAppStore(productIdentifier: IDs.shopping)
    let first = await intents.next()
    let intent = try XCTUnwrap(first)
    XCTAssertEqual(intent.product.id, IDs.shopping)
    XCTAssertNil(intent.offer)
    guard case .success(.verified(let transaction)) = try await intent.product.purchase() else { return XCTFail("not bought") }
    XCTAssertEqual(transaction.productID, IDs.shopping)
    drainMainQueue()
    XCTAssertEqual(observer.storePayments.map(\.product.productIdentifier), [IDs.shopping], "StoreKit 1 was asked too")
    try session.startPurchaseFromAppStore(productIdentifier: IDs.yearly, offerID: "\(IDs.yearly).comeback")
    let second = await intents.next()
    let offered = try XCTUnwrap(second)
    XCTAssertEqual(offered.offer?.id, "\(IDs.yearly).comeback")
    XCTAssertThrowsError(try session.startPurchaseFromAppStore(productIdentifier: IDs.yearly, offerID: "nope")) { error in
      XCTAssertEqual((error as? SKTestError)?.code, .invalidProductIdentifier)
    }
  }

  /// Apple: "If your app has unfinished transactions, the updates listener receives them once,
  /// immediately after the app launches."
  func testTheFirstUpdatesListenerAfterALaunchGetsTheUnfinishedTransactionsOnce() async throws {
    let directory = try TemporaryDirectory(label: "storekit-updates-launch")
    defer { directory.remove() }
    session = try SKTestSession(contentsOf: Self.catalogURL, dataDirectory: directory.url)
    session.disableDialogs = true
    let products = try await Product.products(for: [IDs.shopping])
    let product = try XCTUnwrap(products.first)
    guard case .success(.verified(let bought)) = try await product.purchase() else { return XCTFail("no purchase") }
    // The app quits without finishing; it launches again on the same store.
    session = try SKTestSession(contentsOf: Self.catalogURL, dataDirectory: directory.url)
    var first = Transaction.updates.makeAsyncIterator()
    let redelivered = await first.next()
    XCTAssertEqual(redelivered?.unsafePayloadValue.id, bought.id)
    var second = Transaction.updates.makeAsyncIterator()
    let outside = try await session.buyProduct(identifier: IDs.coins100)
    let next = await second.next()
    XCTAssertEqual(next?.unsafePayloadValue.id, outside.id, "once: a later sequence hears only what happens after it")
  }

  func testTransactionsAreSignedAsXcodeSignsThem() async throws {
    let products = try await Product.products(for: [IDs.shopping])
    let product = try XCTUnwrap(products.first)
    guard case .success(.verified(let transaction)) = try await product.purchase() else { return XCTFail("no verified purchase") }
    XCTAssertEqual(transaction.environment, .xcode)
    let bought = try await session.buyProduct(identifier: IDs.coins100)
    XCTAssertEqual(bought.environment, .xcode)
  }

  func testDeprecatedTimeRatesLastAsApplesDo() throws {
    // `oneHourIsOneDay` (raw value 1): a day lasts an hour, so the monthly plan's free week lasts 7
    // hours and its first paid month 30.
    let rate = try XCTUnwrap(SKTestSession.TimeRate(rawValue: 1))
    session.timeRate = rate
    XCTAssertEqual(session.timeRate.rawValue, 1)
    let start = session.date
    try session.legacy.buyProduct(productIdentifier: IDs.monthly)
    let bought = try XCTUnwrap(session.allTransactions().last)
    XCTAssertEqual(bought.expirationDate, start.addingTimeInterval(7 * 3_600))
    try session.advance(by: 7 * 3_600)
    let renewal = try XCTUnwrap(session.allTransactions().last)
    XCTAssertEqual(renewal.expirationDate, start.addingTimeInterval(37 * 3_600))
  }

  /// As a test written for Xcode does: set a fast rate, buy, and wait for the renewal with an
  /// expectation. The clock follows the wall clock while the test waits.
  func testWaitingForARenewalUnderAnAcceleratedRateSeesIt() throws {
    session.timeRate = .oneRenewalEveryTwoSeconds
    observer.finishes = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.monthly)))
    let renewed = expectation(description: "renewed")
    let watcher = RenewalWatcher(renewed)
    SKPaymentQueue.default().add(watcher)
    defer { SKPaymentQueue.default().remove(watcher) }
    wait(for: [renewed], timeout: 20)
    let chain = session.allTransactions().filter { $0.productIdentifier == IDs.monthly }
    XCTAssertGreaterThanOrEqual(chain.count, 2, "the purchase and at least one renewal")
    XCTAssertEqual(chain[1].purchaseDate, chain[0].purchaseDate.addingTimeInterval(2), "renewed at the end of its period")
  }

  /// The same in an async test, as StoreKit 2 tests for Xcode wait: the renewal arrives in
  /// `Transaction.updates` while the test awaits its expectation.
  func testAwaitingARenewalInUpdatesUnderAnAcceleratedRateSeesIt() async throws {
    session.timeRate = .oneRenewalEveryTwoSeconds
    let products = try await Product.products(for: [IDs.monthly])
    let product = try XCTUnwrap(products.first)
    let updates = Transaction.updates
    guard case .success(.verified(let bought)) = try await product.purchase() else { return XCTFail("no purchase") }
    await bought.finish()
    let renewed = expectation(description: "renewal in Transaction.updates")
    let listener = Task { () -> Transaction? in
      for await update in updates where update.unsafePayloadValue.originalID == bought.id && update.unsafePayloadValue.id != bought.id {
        await update.unsafePayloadValue.finish()
        renewed.fulfill()
        return update.unsafePayloadValue
      }
      return nil
    }
    await fulfillment(of: [renewed], timeout: 20)
    let renewal = await listener.value
    XCTAssertEqual(renewal?.purchaseDate, bought.expirationDate, "the renewal starts where the purchase's period ended")
    XCTAssertEqual(renewal?.reason, .renewal)
  }

  func testAdvanceHandsTheClockToTheTest() throws {
    session.timeRate = .oneRenewalEveryTwoSeconds
    try session.advance(by: 0)
    let start = session.date
    try session.legacy.buyProduct(productIdentifier: IDs.monthly)
    drainMainQueue()
    XCTAssertEqual(session.date, start, "only the test moves the clock once it advanced it")
    try session.advance(by: 5)
    XCTAssertEqual(session.allTransactions().filter { $0.productIdentifier == IDs.monthly }.count, 3)
  }
}

/// Fulfils its expectation at the first renewal it hears (an updated transaction that continues an
/// earlier one).
final class RenewalWatcher: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
  private let renewed: XCTestExpectation
  private var fulfilled = false
  init(_ renewed: XCTestExpectation) { self.renewed = renewed }

  func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
    for transaction in transactions where transaction.transactionState == .purchased && transaction.original != nil {
      if !fulfilled {
        fulfilled = true
        renewed.fulfill()
      }
      queue.finishTransaction(transaction)
    }
  }
}
