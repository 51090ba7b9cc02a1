import Foundation
import StoreKit
import StoreKitTest
import StorefrontProcessTestSupport
import XCTest

/// The session's own members, the receipt, products requests and bad input.
final class SessionAndBadInputTests: StoreKitTestCase {
  func testProductsRequestLocalizesFromTheSessionLocale() throws {
    session.locale = Locale(identifier: "ko_KR")
    session.storefront = "KOR"
    let response = try request([IDs.shopping, IDs.monthly, "com.example.not.in.store"])
    XCTAssertEqual(response.invalidProductIdentifiers, ["com.example.not.in.store"])
    let shopping = try XCTUnwrap(response.products.first { $0.productIdentifier == IDs.shopping })
    XCTAssertFalse(shopping.localizedTitle.isEmpty)
    XCTAssertNotEqual(shopping.localizedTitle, "Remove Ads", "the Korean localization, not the English one")
    XCTAssertEqual(shopping.price, NSDecimalNumber(string: "3"))
    XCTAssertEqual(shopping.priceLocale.currency?.identifier, "KRW")
    let monthly = try XCTUnwrap(response.products.first { $0.productIdentifier == IDs.monthly })
    XCTAssertEqual(monthly.subscriptionPeriod?.unit, .month)
    XCTAssertEqual(monthly.subscriptionPeriod?.numberOfUnits, 1)
    XCTAssertNotNil(monthly.introductoryPrice)
    XCTAssertNotNil(monthly.subscriptionGroupIdentifier)
  }

  func testSimulatedLoadProductsErrorReachesTheRequestDelegate() async throws {
    try await session.setSimulatedError(.generic(.networkError(URLError(.notConnectedToInternet))), forAPI: .loadProducts)
    let done = expectation(description: "failed")
    let delegate = RecordingRequestDelegate(done)
    let request = SKProductsRequest(productIdentifiers: [IDs.coins100])
    request.delegate = delegate
    request.start()
    await fulfillment(of: [done], timeout: 10)
    XCTAssertEqual((delegate.error as? SKError)?.code, .cloudServiceNetworkConnectionFailed)
    XCTAssertFalse(delegate.finished)
  }

  func testUnknownProductFailsWithPaymentInvalid() throws {
    observer.finishes = true
    SKPaymentQueue.default().add(SKMutablePayment(product: try productFromRequest(IDs.coins100)).with { $0.productIdentifier = "com.example.nope" })
    drainMainQueue()
    XCTAssertEqual((observer.transactions.last?.error as? SKError)?.code, .paymentInvalid)
    XCTAssertEqual(observer.lines, try scenarioCallbacks("set dialogs off\nbuy com.example.nope\nfinish last\n"))
  }

  func testQuantityOfZeroOrElevenFailsWithPaymentInvalid() throws {
    let product = try productFromRequest(IDs.coins100)
    for quantity in [0, 11] {
      let payment = SKMutablePayment(product: product)
      payment.quantity = quantity
      SKPaymentQueue.default().add(payment)
    }
    drainMainQueue()
    XCTAssertEqual(observer.transactions.filter { $0.transactionState == .failed }.count, 2)
    XCTAssertEqual(Set(observer.transactions.compactMap { ($0.error as? SKError)?.code }), [.paymentInvalid])
  }

  func testFinishingAPurchasingTransactionIsReportedNotCrashed() throws {
    session.disableDialogs = false
    SKPaymentQueue.default().add(SKPayment(product: try productFromRequest(IDs.coins100)))
    drainMainQueue()
    let purchasing = try XCTUnwrap(observer.transactions.last)
    XCTAssertEqual(purchasing.transactionState, .purchasing)
    SKPaymentQueue.default().finishTransaction(purchasing)
    let issue = try XCTUnwrap(session.reportedIssues.last)
    XCTAssertTrue(issue.contains("Cannot finish a purchasing transaction"), issue)
    // Apple's `finishTransaction(_:)` has no file/line parameters: the report names the transaction.
    XCTAssertTrue(issue.contains(IDs.coins100), "names the transaction's product: \(issue)")
    try session.confirmPurchaseSheet()
    drainMainQueue()
    XCTAssertEqual(observer.transactions.last?.transactionState, .purchased)
  }

  func testAddingTheSameObserverTwiceDeliversOnce() throws {
    SKPaymentQueue.default().add(observer)
    XCTAssertEqual(SKPaymentQueue.default().transactionObservers.filter { $0 === observer }.count, 1)
    SKPaymentQueue.default().add(SKPayment(product: try productFromRequest(IDs.coins100)))
    drainMainQueue()
    XCTAssertEqual(observer.lines.count, 2)
  }

  func testRemovedObserverHearsNothing() throws {
    SKPaymentQueue.default().remove(observer)
    SKPaymentQueue.default().add(SKPayment(product: try productFromRequest(IDs.coins100)))
    drainMainQueue()
    XCTAssertEqual(observer.lines, [])
  }

  func testBrokenConfigurationIsALocatedError() throws {
    let broken = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/invalid-many-problems.storekit")
    XCTAssertThrowsError(try SKTestSession(contentsOf: broken)) { error in
      let failure = error as? SKTestError
      XCTAssertEqual(failure?.code, .invalidAction)
      XCTAssertTrue(failure?.message.contains("invalid-many-problems.storekit:") == true, failure?.message ?? "")
    }
    XCTAssertThrowsError(try SKTestSession(contentsOf: URL(fileURLWithPath: "/nonexistent/Products.storekit"))) { error in
      XCTAssertEqual((error as? SKTestError)?.code, .fileNotFound)
    }
    XCTAssertThrowsError(try SKTestSession(configurationFileNamed: "NoSuchConfiguration")) { error in
      XCTAssertEqual((error as? SKTestError)?.code, .fileNotFound)
    }
  }

  func testConfigurationFileNamedFindsTheTestBundlesResource() throws {
    session = try SKTestSession(configurationFileNamed: "Products")
    session.disableDialogs = true
    XCTAssertEqual(try request([IDs.coins100]).products.count, 1)
  }

  func testClearTransactionsAndResetTakeEffectAtOnce() throws {
    try session.legacy.buyProduct(productIdentifier: IDs.shopping)
    XCTAssertEqual(session.allTransactions().count, 1)
    session.clearTransactions()
    XCTAssertEqual(session.allTransactions().count, 0)
    session.askToBuyEnabled = true
    session.storefront = "JPN"
    try session.legacy.buyProduct(productIdentifier: IDs.coins100)
    session.resetToDefaultState()
    XCTAssertEqual(session.allTransactions().count, 0)
    XCTAssertFalse(session.askToBuyEnabled)
    XCTAssertEqual(session.storefront, "USA")
    XCTAssertTrue(session.disableDialogs == false, "back to the file's settings")
  }

  func testDeleteTransaction() throws {
    try session.legacy.buyProduct(productIdentifier: IDs.shopping)
    let bought = try XCTUnwrap(session.allTransactions().first)
    try session.deleteTransaction(identifier: bought.identifier)
    XCTAssertEqual(session.allTransactions().count, 0)
    XCTAssertThrowsError(try session.deleteTransaction(identifier: 42)) { error in
      XCTAssertEqual((error as? SKTestError)?.code, .noTransactionFound)
    }
  }

  func testTimeRateAndAdvanceMoveOnlyTheVirtualClock() throws {
    session.timeRate = .oneRenewalEveryTenSeconds
    XCTAssertEqual(session.timeRate, .oneRenewalEveryTenSeconds)
    let start = session.date
    try session.legacy.buyProduct(productIdentifier: IDs.monthly)
    try session.advance(by: 35)
    XCTAssertEqual(session.date, start.addingTimeInterval(35))
    let chain = session.allTransactions().filter { $0.productIdentifier == IDs.monthly }
    XCTAssertEqual(chain.count, 4, "the purchase and three renewals, ten seconds apart")
    XCTAssertEqual(chain.map(\.purchaseDate), [0, 10, 20, 30].map { start.addingTimeInterval($0) })
  }

  func testExpireWithoutASubscriptionIsNoSubscriptionFound() {
    XCTAssertThrowsError(try session.expireSubscription(productIdentifier: IDs.monthly)) { error in
      XCTAssertEqual((error as? SKTestError)?.code, .noSubscriptionFound)
    }
  }

  func testPriceIncreaseConsent() throws {
    try session.legacy.buyProduct(productIdentifier: IDs.monthly)
    let bought = try XCTUnwrap(session.allTransactions().last)
    try session.requestPriceIncreaseConsentForTransaction(identifier: bought.identifier)
    XCTAssertEqual(session.allTransactions().last?.isPendingPriceIncreaseConsent, true)
    try session.consentToPriceIncreaseForTransaction(identifier: bought.identifier)
    XCTAssertEqual(session.allTransactions().last?.isPendingPriceIncreaseConsent, false)
  }

  func testReceiptFileIsWrittenAndRefreshed() throws {
    try session.legacy.buyProduct(productIdentifier: IDs.shopping)
    let url = try XCTUnwrap(receiptURLAsAnAppReadsIt())
    let receipt = try Data(contentsOf: url)
    XCTAssertGreaterThan(receipt.count, 500, "a PKCS#7 receipt with its certificate chain")
    XCTAssertEqual(receipt.first, 0x30, "DER")
    XCTAssertTrue(refreshReceipt())
  }

  /// Under a session transactions are signed as Xcode signs them (`environment` `Xcode`): Apple's
  /// `SignedDataVerifier` for the Xcode environment decodes them (it checks no chain there, as for
  /// Xcode's own), refuses them as another environment's for Sandbox, and the session's root verifies
  /// their chain (`.verified`).
  func testJWSPassesApplesSignedDataVerifierWithTheSessionsRoot() async throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let products = try await Product.products(for: [IDs.monthly])
    let product = try XCTUnwrap(products.first)
    guard case .success(let result) = try await product.purchase() else { return XCTFail("no purchase") }
    guard case .verified(let transaction) = result else { return XCTFail("the session's root did not verify \(result)") }
    XCTAssertEqual(transaction.environment, .xcode)
    let directory = try TemporaryDirectory(label: "storekit-jws")
    defer { directory.remove() }
    let root = directory.url.appendingPathComponent("root.der")
    try session.rootCertificate().write(to: root)
    let status = try await XCTUnwrap(product.subscription).status
    let verdicts = try apple.verify([
      .init(
        name: "transaction", kind: .transaction, jws: result.jwsRepresentation, rootDER: root.path,
        bundleID: result.unsafePayloadValue.appBundleID, environment: "XCODE"),
      .init(
        name: "renewal", kind: .renewal, jws: try XCTUnwrap(status.first).renewalInfo.jwsRepresentation, rootDER: root.path,
        bundleID: result.unsafePayloadValue.appBundleID, environment: "XCODE"),
      .init(
        name: "as-sandbox", kind: .transaction, jws: result.jwsRepresentation, rootDER: root.path,
        bundleID: result.unsafePayloadValue.appBundleID),
    ])
    XCTAssertNotEqual(verdicts["as-sandbox"]?.status, 0, "an Xcode transaction is not a Sandbox one")
    XCTAssertEqual(verdicts["transaction"]?.status, 0, verdicts["transaction"]?.cause ?? "")
    XCTAssertEqual(verdicts["transaction"]?.decoded?.transactionId, String(result.unsafePayloadValue.id))
    XCTAssertEqual(verdicts["renewal"]?.status, 0, verdicts["renewal"]?.cause ?? "")
  }

  func testDataDirectorySessionKeepsTheLedgerAcrossSessions() throws {
    let directory = try TemporaryDirectory(label: "storekit-data")
    defer { directory.remove() }
    session = try SKTestSession(contentsOf: Self.catalogURL, dataDirectory: directory.url)
    try session.legacy.buyProduct(productIdentifier: IDs.shopping)
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory.path("ledger.sqlite")))
    session = try SKTestSession(contentsOf: Self.catalogURL, dataDirectory: directory.url)
    XCTAssertEqual(session.allTransactions().map(\.productIdentifier), [IDs.shopping])
    // The unfinished purchase is delivered again at the new session's launch.
    let late = RecordingQueueObserver()
    SKPaymentQueue.default().add(late)
    defer { SKPaymentQueue.default().remove(late) }
    drainMainQueue()
    XCTAssertTrue(late.lines.contains("updated \(IDs.shopping) purchased"), "\(late.lines)")
  }

  // MARK: Helpers

  func request(_ ids: Set<String>) throws -> SKProductsResponse {
    let done = expectation(description: "products")
    let delegate = RecordingRequestDelegate(done)
    let request = SKProductsRequest(productIdentifiers: ids)
    request.delegate = delegate
    request.start()
    wait(for: [done], timeout: 10)
    return try XCTUnwrap(delegate.response)
  }

  func productFromRequest(_ id: String) throws -> SKProduct {
    try XCTUnwrap(try request([id]).products.first)
  }
}

extension SKMutablePayment {
  func with(_ change: (SKMutablePayment) -> Void) -> SKMutablePayment {
    change(self)
    return self
  }
}

extension SessionAndBadInputTests {
  /// `AppTransaction.shared` is signed by the session's CA: it verifies, Apple's verifier decodes it,
  /// and its first-download date is the account's earliest purchase.
  func testAppTransactionIsSignedAndPassesApplesVerifier() async throws {
    let before = try await AppTransaction.shared
    guard case .verified(let fresh) = before else { return XCTFail("the app transaction did not verify: \(before)") }
    XCTAssertEqual(fresh.originalPurchaseDate, session.date, "no purchase yet: first downloaded now")
    try session.legacy.buyProduct(productIdentifier: IDs.shopping)
    let bought = session.date
    try session.advance(by: 3_600)
    let result = try await AppTransaction.refresh()
    let app = try result.payloadValue
    XCTAssertEqual(app.bundleID, fresh.bundleID)
    XCTAssertEqual(app.environment, .xcode, "signed as Xcode signs a StoreKit Testing app transaction")
    XCTAssertEqual(app.originalPurchaseDate, bought)
    XCTAssertEqual(app.signedDate, session.date)
    XCTAssertEqual(app.appTransactionID, fresh.appTransactionID, "one id per account and app")
    XCTAssertEqual(app.originalPlatform, .iOS)
    XCTAssertNil(app.appID, "no Apple id in the sandbox")
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: app.jsonRepresentation) as? [String: Any])
    XCTAssertEqual(object["appTransactionId"] as? String, app.appTransactionID)

    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(label: "storekit-app-transaction")
    defer { directory.remove() }
    let root = directory.url.appendingPathComponent("root.der")
    try session.rootCertificate().write(to: root)
    let verdicts = try apple.verify([
      .init(name: "app", kind: .appTransaction, jws: result.jwsRepresentation, rootDER: root.path, bundleID: app.bundleID, environment: "XCODE")
    ])
    XCTAssertEqual(verdicts["app"]?.status, 0, verdicts["app"]?.cause ?? "")
    XCTAssertEqual(verdicts["app"]?.decoded?.appTransactionId, app.appTransactionID)
    XCTAssertEqual(verdicts["app"]?.decoded?.purchaseDate, Int64((bought.timeIntervalSince1970 * 1000).rounded(.down)))
  }

  func testSimulatedAppTransactionErrorIsThrownAndReadBack() async throws {
    let none = await session.simulatedError(forAPI: .appTransaction)
    XCTAssertNil(none)
    try await session.setSimulatedError(.generic(.notEntitled), forAPI: .appTransaction)
    guard case .generic(.notEntitled)? = await session.simulatedError(forAPI: .appTransaction) else {
      return XCTFail("the set error is not read back")
    }
    do {
      _ = try await AppTransaction.shared
      XCTFail("AppTransaction.shared succeeded under a simulated error")
    } catch let error as StoreKitError {
      guard case .notEntitled = error else { return XCTFail("AppTransaction.shared threw \(error)") }
    }
    try await session.setSimulatedError(.purchase(.invalidQuantity), forAPI: .purchase)
    guard case .purchase(.invalidQuantity)? = await session.simulatedError(forAPI: .purchase) else {
      return XCTFail("a purchase error is not read back")
    }
    try await session.setSimulatedError(nil, forAPI: .appTransaction)
    let cleared = await session.simulatedError(forAPI: .appTransaction)
    XCTAssertNil(cleared)
    _ = try await AppTransaction.shared
  }
}
