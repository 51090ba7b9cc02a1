// Test doubles as apps write them against Apple's StoreKit 1: a subclass of each class that calls
// `super.init()` and overrides each property, and a protocol with Apple's `SKPaymentQueue` method
// signatures that `SKPaymentQueue` conforms to with no code. The tests make each double. Apple's classes
// but the requests are Sendable (NS_SWIFT_SENDABLE), so a subclass restates `@unchecked Sendable` there
// as here; the requests (NS_SWIFT_NONSENDABLE) are not.
import Foundation
import StoreKit
import XCTest

/// Apple's `SKPaymentQueue` methods, as a wrapper library's abstraction declares them.
protocol PaymentQueueProtocol: AnyObject {
  static func canMakePayments() -> Bool
  var delegate: (any SKPaymentQueueDelegate)? { get set }
  var storefront: SKStorefront? { get }
  var transactions: [SKPaymentTransaction] { get }
  var transactionObservers: [any SKPaymentTransactionObserver] { get }
  func add(_ payment: SKPayment)
  func add(_ observer: any SKPaymentTransactionObserver)
  func remove(_ observer: any SKPaymentTransactionObserver)
  func restoreCompletedTransactions()
  func restoreCompletedTransactions(withApplicationUsername username: String?)
  func finishTransaction(_ transaction: SKPaymentTransaction)
  func showPriceConsentIfNeeded()
  func presentCodeRedemptionSheet()
}

extension SKPaymentQueue: PaymentQueueProtocol {}

final class PaymentQueueDouble: SKPaymentQueue, @unchecked Sendable {
  let calls = CallLog()
  override func add(_ payment: SKPayment) { calls.record("add \(payment.productIdentifier)") }
  override func finishTransaction(_ transaction: SKPaymentTransaction) { calls.record("finish") }
  override func restoreCompletedTransactions(withApplicationUsername username: String?) { calls.record("restore") }
  override var transactions: [SKPaymentTransaction] { [] }
  override var storefront: SKStorefront? { StorefrontDouble() }
  override var transactionObservers: [any SKPaymentTransactionObserver] { [] }
  override var delegate: (any SKPaymentQueueDelegate)? {
    get { nil }
    set {}
  }
}

/// What a double was asked, for the tests (a class, so the doubles stay immutable).
final class CallLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String] = []
  func record(_ entry: String) {
    lock.lock()
    defer { lock.unlock() }
    entries.append(entry)
  }
  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return entries
  }
}

final class ProductDouble: SKProduct, @unchecked Sendable {
  let id: String
  init(id: String) {
    self.id = id
    super.init()
  }
  override var productIdentifier: String { id }
  override var localizedTitle: String { "Title" }
  override var localizedDescription: String { "Description" }
  override var price: NSDecimalNumber { NSDecimalNumber(string: "0.99") }
  override var priceLocale: Locale { Locale(identifier: "en_US") }
  override var isFamilyShareable: Bool { true }
  override var contentVersion: String { "1" }
  override var subscriptionPeriod: SKProductSubscriptionPeriod? { SubscriptionPeriodDouble() }
  override var introductoryPrice: SKProductDiscount? { ProductDiscountDouble() }
  override var subscriptionGroupIdentifier: String? { "group" }
  override var discounts: [SKProductDiscount] { [ProductDiscountDouble()] }
}

final class SubscriptionPeriodDouble: SKProductSubscriptionPeriod, @unchecked Sendable {
  override var numberOfUnits: Int { 3 }
  override var unit: SKProduct.PeriodUnit { .month }
}

final class ProductDiscountDouble: SKProductDiscount, @unchecked Sendable {
  override var price: NSDecimalNumber { NSDecimalNumber.zero }
  override var priceLocale: Locale { Locale(identifier: "en_US") }
  override var identifier: String? { "offer" }
  override var subscriptionPeriod: SKProductSubscriptionPeriod { SubscriptionPeriodDouble() }
  override var numberOfPeriods: Int { 1 }
  override var paymentMode: SKProductDiscount.PaymentMode { .freeTrial }
  override var type: SKProductDiscount.`Type` { .subscription }
}

final class PaymentDouble: SKPayment, @unchecked Sendable {
  override var productIdentifier: String { "payment.double" }
  override var quantity: Int { 3 }
  override var applicationUsername: String? { "user" }
  override var requestData: Data? { nil }
  override var simulatesAskToBuyInSandbox: Bool { true }
  override var paymentDiscount: SKPaymentDiscount? { PaymentDiscountDouble() }
}

final class MutablePaymentDouble: SKMutablePayment, @unchecked Sendable {
  override var productIdentifier: String {
    get { "mutable.double" }
    set {}
  }
}

final class PaymentDiscountDouble: SKPaymentDiscount, @unchecked Sendable {
  override var identifier: String { "offer" }
  override var keyIdentifier: String { "KEY" }
  override var nonce: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)) }
  override var signature: String { "signature" }
  override var timestamp: NSNumber { NSNumber(value: 1) }
}

final class PaymentTransactionDouble: SKPaymentTransaction, @unchecked Sendable {
  let state: SKPaymentTransactionState
  init(state: SKPaymentTransactionState) {
    self.state = state
    super.init()
  }
  override var transactionState: SKPaymentTransactionState { state }
  override var transactionIdentifier: String? { "1000" }
  override var transactionDate: Date? { Date(timeIntervalSince1970: 0) }
  override var payment: SKPayment { PaymentDouble() }
  override var error: Error? { state == .failed ? SKError(.paymentCancelled) : nil }
  override var original: SKPaymentTransaction? { nil }
}

final class StorefrontDouble: SKStorefront, @unchecked Sendable {
  override var countryCode: String { "FRA" }
  override var identifier: String { "143442" }
}

final class ProductsResponseDouble: SKProductsResponse, @unchecked Sendable {
  override var products: [SKProduct] { [ProductDouble(id: "a")] }
  override var invalidProductIdentifiers: [String] { ["b"] }
}

final class RequestDouble: SKRequest {
  let calls = CallLog()
  override func start() { calls.record("start") }
  override func cancel() { calls.record("cancel") }
}

final class ProductsRequestDouble: SKProductsRequest {
  override func start() {
    delegate?.productsRequest(self, didReceive: ProductsResponseDouble())
  }
}

final class ReceiptRefreshRequestDouble: SKReceiptRefreshRequest {
  override var receiptProperties: [String: Any]? { [SKReceiptPropertyIsRevoked: true] }
  override func start() {}
}

final class PromotionControllerDouble: SKProductStorePromotionController, @unchecked Sendable {
  override func fetchStorePromotionOrder(completionHandler: (@Sendable ([SKProduct], Error?) -> Void)? = nil) {
    completionHandler?([ProductDouble(id: "promoted")], nil)
  }
}

@available(*, deprecated, message: "a double of Apple's deprecated hosted content")
final class DownloadDouble: SKDownload, @unchecked Sendable {
  override var state: SKDownloadState { .finished }
  override var expectedContentLength: Int64 { 10 }
  override var contentIdentifier: String { "content" }
  override var contentURL: URL? { URL(fileURLWithPath: "/tmp/content") }
  override var contentVersion: String { "1.0" }
  override var error: Error? { nil }
  override var progress: Float { 1 }
  override var timeRemaining: TimeInterval { 0 }
  override var transaction: SKPaymentTransaction { PaymentTransactionDouble(state: .purchased) }
}

final class ProductsDelegateDouble: NSObject, SKProductsRequestDelegate {
  var products: [String] = []
  func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
    products = response.products.map(\.productIdentifier) + response.invalidProductIdentifiers
  }
}

/// The doubles made and used as an app's tests use them (no store is involved).
final class StoreKit1SurfaceDoubleTests: XCTestCase {
  func testEachDoubleIsMadeWithSuperInitAndAnswersItsOverrides() {
    let product = ProductDouble(id: "p")
    XCTAssertEqual(product.productIdentifier, "p")
    XCTAssertEqual(product.price, NSDecimalNumber(string: "0.99"))
    XCTAssertEqual(product.subscriptionPeriod?.unit, .month)
    XCTAssertEqual(product.subscriptionPeriod?.numberOfUnits, 3)
    XCTAssertEqual(product.introductoryPrice?.paymentMode, .freeTrial)
    XCTAssertEqual(product.discounts.first?.type, .subscription)
    XCTAssertEqual(SKPayment(product: product).productIdentifier, "p")
    let payment = PaymentDouble()
    XCTAssertEqual(payment.quantity, 3)
    XCTAssertEqual(payment.paymentDiscount?.keyIdentifier, "KEY")
    XCTAssertEqual(MutablePaymentDouble().productIdentifier, "mutable.double")
    let failed = PaymentTransactionDouble(state: .failed)
    XCTAssertEqual(failed.transactionState, .failed)
    XCTAssertEqual((failed.error as? SKError)?.code, .paymentCancelled)
    XCTAssertEqual(StorefrontDouble().countryCode, "FRA")
    XCTAssertEqual(ReceiptRefreshRequestDouble().receiptProperties?[SKReceiptPropertyIsRevoked] as? Bool, true)
  }

  func testAProtocolWithApplesQueueSignaturesTakesTheQueueAndItsDouble() {
    let double = PaymentQueueDouble()
    let queues: [any PaymentQueueProtocol] = [double, SKPaymentQueue.default()]
    XCTAssertTrue(queues[1] === SKPaymentQueue.default())
    queues[0].add(PaymentDouble())
    queues[0].finishTransaction(PaymentTransactionDouble(state: .purchased))
    queues[0].restoreCompletedTransactions(withApplicationUsername: nil)
    XCTAssertEqual(double.calls.all, ["add payment.double", "finish", "restore"])
    XCTAssertEqual(double.storefront?.identifier, "143442")
  }

  func testRequestDoublesTellTheirDelegates() {
    let request = ProductsRequestDouble(productIdentifiers: ["a"])
    let delegate = ProductsDelegateDouble()
    request.delegate = delegate
    request.start()
    XCTAssertEqual(delegate.products, ["a", "b"])
    let plain = RequestDouble()
    plain.start()
    plain.cancel()
    XCTAssertEqual(plain.calls.all, ["start", "cancel"])
    let order = CallLog()
    PromotionControllerDouble().fetchStorePromotionOrder { products, _ in
      for product in products { order.record(product.productIdentifier) }
    }
    XCTAssertEqual(order.all, ["promoted"])
  }
}
