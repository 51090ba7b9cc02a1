import Foundation
import StoreEngine
import StoreKit
import StoreKitTest
import XCTest

/// What the payment queue asks the app before the store goes on: its delegate when the storefront
/// changes during a payment and before a price-consent sheet, its observers when a purchase starts
/// on the App Store.
final class StoreKit1QueueQuestionsTests: StoreKitTestCase {
  private var delegate: QueueDelegate!

  override func setUpWithError() throws {
    try super.setUpWithError()
    delegate = QueueDelegate()
    SKPaymentQueue.default().delegate = delegate
  }

  override func tearDown() {
    SKPaymentQueue.default().delegate = nil
    delegate = nil
    super.tearDown()
  }

  /// A payment whose sheet is open when the storefront changes.
  private func changeStorefrontDuringAPurchase() throws {
    session.disableDialogs = false
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    XCTAssertEqual(observer.transactions.last?.transactionState, .purchasing)
    session.storefront = "GBR"
    drainMainQueue()
  }

  func testADelegateThatDeclinesAStorefrontChangeFailsThePaymentAsApplesDoes() throws {
    delegate.continues = false
    try changeStorefrontDuringAPurchase()
    XCTAssertEqual(delegate.askedToContinue.map(\.storefront), ["GBR"])
    XCTAssertEqual(delegate.askedToContinue.first?.product, IDs.coins100)
    XCTAssertEqual(
      observer.lines,
      ["updated \(IDs.coins100) purchasing", "storefrontChanged", "updated \(IDs.coins100) failed error 5"])
    XCTAssertEqual((observer.transactions.last?.error as? SKError)?.code, .storeProductNotAvailable)
    XCTAssertThrowsError(try session.confirmPurchaseSheet(), "the sheet closed with the payment")
  }

  func testADelegateThatContinuesLeavesThePaymentToTheSheet() throws {
    try changeStorefrontDuringAPurchase()
    XCTAssertEqual(delegate.askedToContinue.count, 1)
    try session.confirmPurchaseSheet()
    drainMainQueue()
    XCTAssertEqual(observer.lines, ["updated \(IDs.coins100) purchasing", "storefrontChanged", "updated \(IDs.coins100) purchased"])
  }

  func testAStorefrontChangeWithNoPaymentInProgressAsksNothing() throws {
    session.storefront = "FRA"
    drainMainQueue()
    XCTAssertTrue(delegate.askedToContinue.isEmpty)
    XCTAssertEqual(observer.lines, ["storefrontChanged"])
  }

  /// A monthly subscription with a price increase waiting for consent; its chain's id.
  private func requestPriceIncrease() throws -> UInt64 {
    observer.finishes = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.monthly)))
    drainMainQueue()
    let transaction = try XCTUnwrap(session.allTransactions().last)
    try session.requestPriceIncreaseConsentForTransaction(identifier: transaction.identifier)
    drainMainQueue()
    return UInt64(transaction.originalTransactionIdentifier)
  }

  func testADelegateThatHoldsThePriceConsentSheetBackShowsItWhenTheAppAsks() throws {
    delegate.showsPriceConsent = false
    let chain = try requestPriceIncrease()
    XCTAssertEqual(delegate.askedToShowPriceConsent, 1)
    XCTAssertEqual(StoreKitEnvironment.shared.priceConsentSheetsShown, [])
    SKPaymentQueue.default().showPriceConsentIfNeeded()
    XCTAssertEqual(StoreKitEnvironment.shared.priceConsentSheetsShown, [chain])
    try session.consentToPriceIncreaseForTransaction(identifier: UInt(chain))
    drainMainQueue()
    XCTAssertEqual(StoreKitEnvironment.shared.priceConsentSheetsShown, [], "answered: the sheet closed")
    XCTAssertEqual(delegate.askedToShowPriceConsent, 1)
  }

  func testADelegateThatAgreesSeesTheSheetShownAtOnce() throws {
    let chain = try requestPriceIncrease()
    XCTAssertEqual(delegate.askedToShowPriceConsent, 1)
    XCTAssertEqual(StoreKitEnvironment.shared.priceConsentSheetsShown, [chain])
  }

  func testAPriceIncreaseStillWaitingIsAskedAboutAgainWhenTheAppStarts() throws {
    // An app attached to a data directory: its purchases outlive the process, as on a device.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relaunch-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let environment = [
      "STOREFRONT_DATA_DIR": directory.path, "STOREFRONT_BUNDLE_ID": "com.example.relaunch", "HOME": directory.path,
      "STOREFRONT_DIALOGS": "off", "STOREKIT_CONFIGURATION": try Self.catalogURL.path,
    ]
    try StoreKitEnvironment.shared.replace(with: .processDefault(environment: environment))
    delegate.showsPriceConsent = false
    observer.finishes = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.monthly)))
    let deadline = Date().addingTimeInterval(10)
    while !observer.lines.contains("removed \(IDs.monthly)"), Date() < deadline {
      _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
    let chain = try XCTUnwrap(StoreKitEnvironment.shared.read { $0.queue.subscriptions().first?.originalID })
    try StoreKitEnvironment.shared.perform(.priceIncrease(chain, .request))
    drainMainQueue()
    XCTAssertEqual(delegate.askedToShowPriceConsent, 1)
    XCTAssertEqual(StoreKitEnvironment.shared.priceConsentSheetsShown, [], "held back")

    // The app starts again: the increase still waits, so the delegate is asked again.
    delegate.showsPriceConsent = true
    try StoreKitEnvironment.shared.replace(with: .processDefault(environment: environment))
    drainMainQueue()
    XCTAssertEqual(delegate.askedToShowPriceConsent, 2)
    XCTAssertEqual(StoreKitEnvironment.shared.priceConsentSheetsShown, [chain.rawValue])
  }

  func testShowPriceConsentIfNeededWithNothingPendingShowsNothing() {
    SKPaymentQueue.default().showPriceConsentIfNeeded()
    XCTAssertEqual(StoreKitEnvironment.shared.priceConsentSheetsShown, [])
  }

  func testAnObserverThatDefersAnAppStorePurchaseAddsItLater() throws {
    observer.addsStorePayments = false
    try session.startPurchaseFromAppStore(productIdentifier: IDs.shopping)
    drainMainQueue()
    let kept = try XCTUnwrap(observer.storePayments.last)
    XCTAssertEqual(kept.payment.productIdentifier, IDs.shopping)
    XCTAssertEqual(kept.product.productIdentifier, IDs.shopping)
    XCTAssertTrue(observer.lines.isEmpty, "deferred: no transaction")
    SKPaymentQueue.default().add(kept.payment)
    drainMainQueue()
    XCTAssertEqual(observer.lines, ["updated \(IDs.shopping) purchasing", "updated \(IDs.shopping) purchased"])
  }

  func testAnObserverThatAgreesHasTheAppStorePurchaseAdded() throws {
    try session.startPurchaseFromAppStore(productIdentifier: IDs.shopping)
    drainMainQueue()
    XCTAssertEqual(observer.storePayments.count, 1)
    XCTAssertEqual(observer.lines, ["updated \(IDs.shopping) purchasing", "updated \(IDs.shopping) purchased"])
  }

  func testAnAppStorePurchaseOfAProductNotSoldIsRefused() {
    XCTAssertThrowsError(try session.startPurchaseFromAppStore(productIdentifier: "no.such.product")) { error in
      XCTAssertEqual((error as? SKTestError)?.code, .invalidProductIdentifier)
      XCTAssertTrue((error as? SKTestError)?.message.contains("no.such.product") == true)
    }
    XCTAssertThrowsError(try StoreKitEnvironment.shared.startStorePayment(productIdentifier: "no.such.product")) { error in
      XCTAssertEqual((error as? SKError)?.code, .storeProductNotAvailable)
    }
  }
}

/// Records what the queue asked and answers as told.
final class QueueDelegate: NSObject, SKPaymentQueueDelegate, @unchecked Sendable {
  var continues = true
  var showsPriceConsent = true
  var askedToContinue: [(product: String, storefront: String)] = []
  var askedToShowPriceConsent = 0

  func paymentQueue(_ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction, in newStorefront: SKStorefront) -> Bool {
    XCTAssertTrue(Thread.isMainThread)
    askedToContinue.append((transaction.payment.productIdentifier, newStorefront.countryCode))
    return continues
  }

  func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool {
    XCTAssertTrue(Thread.isMainThread)
    askedToShowPriceConsent += 1
    return showsPriceConsent
  }
}
