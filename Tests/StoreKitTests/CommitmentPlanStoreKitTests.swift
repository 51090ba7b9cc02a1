import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// Monthly subscriptions with a 12-month commitment through the StoreKit 2 library (iOS 26.4):
/// `pricingTerms`, the `.billingPlanType` purchase option, `Transaction.commitmentInfo` and
/// `RenewalInfo.commitmentInfo`, on Examples/11-commitment-plan.storekit.
final class CommitmentPlanStoreKitTests: StoreKitTestCase {
  static let yearly = "com.example.commitment.yearly"
  static var commitmentCatalog: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/11-commitment-plan.storekit")
  }

  func testAMonthlyPlanPurchaseCarriesItsCommitment() async throws {
    session = try SKTestSession(contentsOf: Self.commitmentCatalog)
    session.disableDialogs = true
    let products = try await Product.products(for: [Self.yearly])
    let product = try XCTUnwrap(products.first)
    let terms = try XCTUnwrap(product.subscription?.pricingTerms)
    XCTAssertEqual(terms.map(\.billingPlanType), [.upFront, .monthly])
    XCTAssertEqual(terms.map(\.billingPrice), [Decimal(string: "39.99"), Decimal(string: "3.99")])

    guard case .success(.verified(let transaction)) = try await product.purchase(options: [.billingPlanType(.monthly)]) else {
      return XCTFail("the monthly-plan purchase did not succeed")
    }
    XCTAssertEqual(transaction.billingPlanType, .monthly)
    XCTAssertEqual(transaction.price, Decimal(string: "3.99"))
    let commitment = try XCTUnwrap(transaction.commitmentInfo)
    XCTAssertEqual(commitment.billingPeriodNumber, 1)
    XCTAssertEqual(commitment.totalBillingPeriods, 12)
    XCTAssertEqual(commitment.price, Decimal(string: "47.88"))
    let expiration = try XCTUnwrap(transaction.expirationDate)
    XCTAssertGreaterThan(commitment.expirationDate, expiration, "the commitment outlasts its first month")

    let statuses = try await product.subscription?.status ?? []
    let status = try XCTUnwrap(statuses.first)
    let renewal = status.renewalInfo.unsafePayloadValue
    XCTAssertEqual(renewal.renewalBillingPlanType, .monthly)
    XCTAssertEqual(renewal.renewalPrice, Decimal(string: "3.99"))
    let next = try XCTUnwrap(renewal.commitmentInfo)
    XCTAssertTrue(next.willAutoRenew)
    XCTAssertEqual(next.renewalBillingPlanType, .monthly)
    XCTAssertEqual(next.renewalPrice, Decimal(string: "47.88"))
    XCTAssertEqual(next.autoRenewPreference, Self.yearly)
    XCTAssertEqual(next.renewalDate, commitment.expirationDate)
  }

  func testTheUpFrontPlanHasNoCommitment() async throws {
    session = try SKTestSession(contentsOf: Self.commitmentCatalog)
    session.disableDialogs = true
    let products = try await Product.products(for: [Self.yearly])
    let product = try XCTUnwrap(products.first)
    guard case .success(.verified(let transaction)) = try await product.purchase(options: [.billingPlanType(.upFront)]) else {
      return XCTFail("the up-front purchase did not succeed")
    }
    XCTAssertEqual(transaction.billingPlanType, .upFront)
    XCTAssertEqual(transaction.price, Decimal(string: "39.99"))
    XCTAssertNil(transaction.commitmentInfo)
  }
}
