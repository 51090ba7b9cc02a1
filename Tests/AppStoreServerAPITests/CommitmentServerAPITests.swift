import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// `serve` hands out a monthly plan's payments and renewal info with their API 1.21 fields:
/// `billingPlanType` + `commitmentInfo` (TransactionCommitmentInfo), `renewalBillingPlanType` +
/// `commitmentInfo` (RenewalCommitmentInfo). DECISIONS §43.
final class CommitmentServerAPITests: XCTestCase {
  func testTransactionInfoAndSubscriptionStatusCarryTheCommitment() throws {
    let fixture = try APIFixture(catalog: FixtureCatalog.withBillingPlans())
    var payment = Payment(productID: FixtureCatalog.yearly)
    payment.billingPlanType = BillingPlan.monthly
    let id = try fixture.store.queue.add(payment)
    try fixture.store.queue.advance(by: 40 * 86_400)

    let info = json(fixture.get("/inApps/v1/transactions/\(id)"))
    let transaction = TestStore.payload(of: info["signedTransactionInfo"] as? String)
    XCTAssertEqual(transaction["billingPlanType"] as? String, "MONTHLY")
    let commitment = try XCTUnwrap(transaction["commitmentInfo"] as? [String: Any])
    XCTAssertEqual(commitment["billingPeriodNumber"] as? Int, 1)
    XCTAssertEqual(commitment["totalBillingPeriods"] as? Int, 12)
    XCTAssertEqual(commitment["commitmentPrice"] as? Int, 35_880)

    let status = json(fixture.get("/inApps/v1/subscriptions/\(id)"))
    let last = try XCTUnwrap(((status["data"] as? [[String: Any]])?.first?["lastTransactions"] as? [[String: Any]])?.first)
    let latest = TestStore.payload(of: last["signedTransactionInfo"] as? String)
    XCTAssertEqual((latest["commitmentInfo"] as? [String: Any])?["billingPeriodNumber"] as? Int, 2, "the second month's payment")
    let renewal = TestStore.payload(of: last["signedRenewalInfo"] as? String)
    XCTAssertEqual(renewal["renewalBillingPlanType"] as? String, "MONTHLY")
    let next = try XCTUnwrap(renewal["commitmentInfo"] as? [String: Any])
    XCTAssertEqual(next["commitmentAutoRenewStatus"] as? Int, 1)
    XCTAssertEqual(next["commitmentRenewalBillingPlanType"] as? String, "MONTHLY")
    XCTAssertEqual(next["commitmentRenewalDate"] as? Int64, commitment["commitmentExpiresDate"] as? Int64)
  }
}
