import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Requests the developer's server signs as a compact JWS (promotional offers, introductory-offer
/// eligibility): the store checks the key, the audience, the app, the product, the customer's
/// transaction and the age, and refuses with Apple's errors, charging nothing.
final class SignedRequestTests: XCTestCase {
  typealias F = FixtureCatalog

  func makeQueue() throws -> PaymentQueue {
    var environment = TestStore.environment
    environment.offerSignatureVerifier = TestOfferKey()
    let queue = try PaymentQueue(catalog: F.make(), ledger: InMemoryLedgerStore(), environment: environment)
    try queue.signIn("tester")
    try queue.set(.dialogs(false))
    return queue
  }

  /// A request as Apple's signature creators make it, signed by the test key (or tampered with).
  func request(
    _ audience: SignedRequest.Audience, product: Product.ID = F.monthly, offer: String? = nil, allow: Bool? = nil,
    transaction: String? = nil, bundleID: String = StoreEnvironment.defaultBundleID, issuedAt: Date = TestStore.start,
    key: String = TestOfferKey.keyID, valid: Bool = true
  ) -> SignedRequest {
    let input = Data("header.\(audience.rawValue).\(product.rawValue).\(offer ?? "").\(allow.map(String.init) ?? "")".utf8)
    return SignedRequest(
      keyIdentifier: key, signature: TestOfferKey.signature(of: valid ? input : Data("tampered".utf8)), signingInput: input,
      audience: audience.rawValue, bundleID: bundleID, productID: product.rawValue, offerIdentifier: offer, transactionID: transaction,
      allowIntroductoryOffer: allow, issuedAt: issuedAt, nonce: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
  }

  func promotional(_ request: SignedRequest) -> Payment {
    var discount = PaymentDiscount(
      identifier: request.offerIdentifier ?? "", keyIdentifier: request.keyIdentifier, nonce: UUID(), signature: request.signature,
      timestamp: SignedPayloads.milliseconds(request.issuedAt ?? TestStore.start))
    discount.request = request
    return Payment(productID: Product.ID(request.productID ?? ""), offerID: request.offerIdentifier, discount: discount)
  }

  func eligibility(_ request: SignedRequest) -> Payment {
    var payment = Payment(productID: Product.ID(request.productID ?? ""))
    payment.introductoryOfferEligibility = request
    return payment
  }

  func outcome(_ payment: Payment, on queue: PaymentQueue) throws -> PaymentTransaction {
    let id = try queue.add(payment)
    return try XCTUnwrap(try queue.transaction(id))
  }

  func testAPromotionalOfferSignedForThisAppProductAndCustomerIsApplied() throws {
    let queue = try makeQueue()
    // A former subscriber: promotional offers are for existing or former subscribers.
    let first = try outcome(Payment(productID: F.monthly), on: queue)
    try queue.expireSubscription(first.id)
    let bought = try outcome(promotional(request(.promotionalOffer, offer: "winback50", transaction: first.id.description)), on: queue)
    XCTAssertEqual(bought.state, .purchased)
    XCTAssertEqual(bought.offerID, "winback50")
    XCTAssertEqual(bought.price, Decimal(string: "4.99"))
  }

  func testEveryBadPromotionalOfferIsRefusedWithApplesErrorAndChargesNothing() throws {
    let queue = try makeQueue()
    let first = try outcome(Payment(productID: F.monthly), on: queue)
    try queue.expireSubscription(first.id)
    let appTransaction = SignedPayloads.appTransactionID(account: "tester", bundleID: StoreEnvironment.defaultBundleID)
    let cases: [(String, SignedRequest, StoreKitError)] = [
      ("a signature another key made", request(.promotionalOffer, offer: "winback50", valid: false), .invalidSignature),
      ("an unknown key id", request(.promotionalOffer, offer: "winback50", key: "OTHERKEY"), .invalidSignature),
      ("the eligibility audience", request(.introductoryOfferEligibility, offer: "winback50"), .invalidSignature),
      ("another app's bundle id", request(.promotionalOffer, offer: "winback50", bundleID: "com.other.app"), .invalidSignature),
      ("another product", request(.promotionalOffer, product: F.yearly, offer: "winback50"), .invalidSignature),
      ("signed more than a day ago", request(.promotionalOffer, offer: "winback50", issuedAt: TestStore.start.addingTimeInterval(-86_401)),
       .invalidSignature),
      ("signed in the future", request(.promotionalOffer, offer: "winback50", issuedAt: TestStore.start.addingTimeInterval(86_401)),
       .invalidSignature),
      ("another customer's app transaction", request(.promotionalOffer, offer: "winback50", transaction: "999999"), .invalidSignature),
    ]
    for (name, signed, error) in cases {
      var payment = promotional(signed)
      if name == "another product" { payment.productID = F.monthly }
      let refused = try outcome(payment, on: queue)
      XCTAssertEqual(refused.state, .failed, name)
      XCTAssertEqual(refused.error, error, name)
      XCTAssertEqual(refused.signedTransaction, nil, "\(name): nothing charged")
    }
    // The customer's app transaction id names them as well as a transaction does.
    let good = try outcome(promotional(request(.promotionalOffer, offer: "winback50", transaction: appTransaction)), on: queue)
    XCTAssertEqual(good.state, .purchased)
  }

  func testASignedEligibilityGrantsOrWithholdsTheIntroductoryOffer() throws {
    let queue = try makeQueue()
    let appTransaction = SignedPayloads.appTransactionID(account: "tester", bundleID: StoreEnvironment.defaultBundleID)
    // A new subscriber whose server says no: the list price, no free trial.
    let withheld = try outcome(eligibility(request(.introductoryOfferEligibility, allow: false, transaction: appTransaction)), on: queue)
    XCTAssertEqual(withheld.state, .purchased)
    XCTAssertNil(withheld.offerType)
    XCTAssertEqual(withheld.price, Decimal(string: "2.99"))
    try queue.expireSubscription(withheld.id)
    // A former subscriber (not eligible by history) whose server says yes: the free trial.
    let granted = try outcome(eligibility(request(.introductoryOfferEligibility, allow: true, transaction: withheld.id.description)), on: queue)
    XCTAssertEqual(granted.state, .purchased)
    XCTAssertEqual(granted.offerType, .introductory)
    XCTAssertEqual(granted.price, 0)
  }

  func testABadEligibilityRequestIsRefused() throws {
    let queue = try makeQueue()
    let appTransaction = SignedPayloads.appTransactionID(account: "tester", bundleID: StoreEnvironment.defaultBundleID)
    let cases: [(String, SignedRequest, StoreKitError)] = [
      ("no answer", request(.introductoryOfferEligibility, transaction: appTransaction), .missingOfferParams),
      ("no transaction", request(.introductoryOfferEligibility, allow: true), .missingOfferParams),
      ("the promotional-offer audience", request(.promotionalOffer, allow: true, transaction: appTransaction), .invalidSignature),
      ("tampered", request(.introductoryOfferEligibility, allow: true, transaction: appTransaction, valid: false), .invalidSignature),
    ]
    for (name, signed, error) in cases {
      let refused = try outcome(eligibility(signed), on: queue)
      XCTAssertEqual(refused.state, .failed, name)
      XCTAssertEqual(refused.error, error, name)
    }
  }
}
