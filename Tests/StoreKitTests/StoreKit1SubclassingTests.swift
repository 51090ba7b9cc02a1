import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// The queue's behaviour with what Swift lets an app make of Apple's StoreKit 1 classes: empty
/// objects from `init()`, subclasses that override properties, and the queue used through a
/// protocol that has Apple's method signatures.
final class StoreKit1SubclassingTests: StoreKitTestCase {
  func testAMutablePaymentMadeEmptyBuysTheProductItNames() {
    let payment = SKMutablePayment()
    XCTAssertEqual(payment.productIdentifier, "")
    XCTAssertEqual(payment.quantity, 1)
    payment.productIdentifier = IDs.coins100
    payment.quantity = 2
    SKPaymentQueue.default().add(payment)
    drainMainQueue()
    XCTAssertEqual(observer.lines, ["updated \(IDs.coins100) purchasing", "updated \(IDs.coins100) purchased"])
    XCTAssertEqual(observer.transactions.last?.payment.quantity, 2)
  }

  func testAPaymentOfAProductDoubleUsesTheOverriddenIdentifier() {
    let product = ProductDouble(id: IDs.shopping, price: 9.99)
    XCTAssertEqual(product.price, NSDecimalNumber(string: "9.99"))
    let payment = SKPayment(product: product)
    XCTAssertEqual(payment.productIdentifier, IDs.shopping)
    XCTAssertEqual(SKMutablePayment(product: product).productIdentifier, IDs.shopping)
    SKPaymentQueue.default().add(payment)
    drainMainQueue()
    XCTAssertEqual(observer.transactions.last?.transactionState, .purchased)
    XCTAssertEqual(observer.transactions.last?.payment.productIdentifier, IDs.shopping)
  }

  func testEmptyObjectsHaveEmptyValues() {
    let product = SKProduct()
    XCTAssertEqual(product.productIdentifier, "")
    XCTAssertEqual(product.price, NSDecimalNumber.zero)
    XCTAssertNil(product.subscriptionPeriod)
    XCTAssertTrue(product.discounts.isEmpty)
    XCTAssertTrue(SKProductsResponse().products.isEmpty)
    XCTAssertEqual(SKStorefront().countryCode, "")
    XCTAssertEqual(SKProductSubscriptionPeriod().unit, .day)
    XCTAssertEqual(SKProductDiscount().type, .introductory)
    XCTAssertEqual(SKPaymentDiscount().identifier, "")
    let transaction = SKPaymentTransaction()
    XCTAssertEqual(transaction.transactionState, .purchasing)
    XCTAssertNil(transaction.transactionIdentifier)
  }

  func testFinishingATransactionTheStoreDidNotMakeIsReportedAndChangesNothing() throws {
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    XCTAssertEqual(SKPaymentQueue.default().transactions.count, 1)
    let double = TransactionDouble(state: .purchased, productIdentifier: IDs.coins100)
    StoreKitEnvironment.shared.clearReportedIssues()
    SKPaymentQueue.default().finishTransaction(double)
    drainMainQueue()
    let issue = try XCTUnwrap(session.reportedIssues.last)
    XCTAssertTrue(issue.contains("did not make"), issue)
    XCTAssertEqual(SKPaymentQueue.default().transactions.count, 1, "the store's own transaction is still unfinished")
    XCTAssertFalse(observer.lines.contains { $0.hasPrefix("removed") })
  }

  func testTheQueueFinishesThroughAProtocolWithApplesSignature() throws {
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    let purchased = try XCTUnwrap(observer.transactions.last)
    let queue: any AppPaymentQueue = SKPaymentQueue.default()
    queue.finishTransaction(purchased)
    drainMainQueue()
    XCTAssertEqual(observer.lines.last, "removed \(IDs.coins100)")
    XCTAssertTrue(SKPaymentQueue.default().transactions.isEmpty)
  }

  func testAQueueSubclassOverridesFinishTransaction() {
    let queue = QueueDouble()
    queue.finishTransaction(SKPaymentTransaction())
    XCTAssertEqual(queue.finished, 1)
    XCTAssertTrue(SKPaymentQueue.default() === SKPaymentQueue.default())
  }

  func testProductsRequestDelegateIsTheRequestDelegateTypedAsApples() throws {
    let done = expectation(description: "products")
    let delegate = RecordingRequestDelegate(done)
    let request = SKProductsRequest(productIdentifiers: [IDs.coins100])
    request.delegate = delegate
    XCTAssertTrue((request as SKRequest).delegate === delegate)
    let typed: (any SKProductsRequestDelegate)? = request.delegate
    XCTAssertTrue(typed === delegate)
    request.start()
    wait(for: [done], timeout: 10)
    XCTAssertEqual(delegate.response?.products.map(\.productIdentifier), [IDs.coins100])
    // A delegate that is only an SKRequestDelegate is not a products delegate.
    let plain = PlainRequestDelegate()
    (request as SKRequest).delegate = plain
    XCTAssertNil(request.delegate)
    XCTAssertTrue((request as SKRequest).delegate === plain)
  }

  @available(*, deprecated, message: "exercises hosted content")
  func testHostedContentIsAbsent() throws {
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    let transaction = try XCTUnwrap(observer.transactions.last)
    XCTAssertTrue(transaction.downloads.isEmpty)
    let product = try loadProduct(IDs.coins100)
    XCTAssertFalse(product.isDownloadable)
    XCTAssertTrue(product.downloadContentLengths.isEmpty)
    let download = SKDownload()
    XCTAssertEqual(download.state, .waiting)
    XCTAssertEqual(download.timeRemaining, SKDownloadTimeRemainingUnknown)
    SKPaymentQueue.default().start([download])
    SKPaymentQueue.default().cancel([download])
    drainMainQueue()
    XCTAssertEqual(download.state, .waiting)
    XCTAssertEqual(observer.lines, ["updated \(IDs.coins100) purchasing", "updated \(IDs.coins100) purchased"])
  }

  func testReceiptConstantsAndTerminationWithAValidReceipt() {
    XCTAssertEqual([SKReceiptPropertyIsExpired, SKReceiptPropertyIsRevoked, SKReceiptPropertyIsVolumePurchase], ["expired", "revoked", "vpp"])
    let request = SKReceiptRefreshRequest(receiptProperties: [SKReceiptPropertyIsExpired: true])
    XCTAssertEqual(request.receiptProperties?[SKReceiptPropertyIsExpired] as? Bool, true)
    SKTerminateForInvalidReceipt()  // returns: the store gives the app a receipt
    XCTAssertTrue(refreshReceipt(), "the receipt it checked is there")
  }
}

/// Apple's `SKPaymentQueue` method signatures, as an app's own abstraction declares them.
protocol AppPaymentQueue: AnyObject {
  func add(_ payment: SKPayment)
  func finishTransaction(_ transaction: SKPaymentTransaction)
  func restoreCompletedTransactions(withApplicationUsername username: String?)
}

extension SKPaymentQueue: AppPaymentQueue {}

final class ProductDouble: SKProduct, @unchecked Sendable {
  private let id: String
  private let amount: Decimal
  init(id: String, price: Decimal) {
    self.id = id
    amount = price
    super.init()
  }
  override var productIdentifier: String { id }
  override var price: NSDecimalNumber { NSDecimalNumber(decimal: amount) }
}

final class TransactionDouble: SKPaymentTransaction, @unchecked Sendable {
  private let state: SKPaymentTransactionState
  private let made: SKPayment
  init(state: SKPaymentTransactionState, productIdentifier: String) {
    self.state = state
    let payment = SKMutablePayment()
    payment.productIdentifier = productIdentifier
    made = payment
    super.init()
  }
  override var transactionState: SKPaymentTransactionState { state }
  override var payment: SKPayment { made }
}

final class QueueDouble: SKPaymentQueue, @unchecked Sendable {
  var finished = 0
  override func finishTransaction(_ transaction: SKPaymentTransaction) { finished += 1 }
}

final class PlainRequestDelegate: NSObject, SKRequestDelegate {}
