import Foundation
import StorefrontTestSupport
import XCTest

@testable import StoreEngine

/// Monthly subscriptions with a 12-month commitment (iOS 26.4, API 1.21; DECISIONS §43): a yearly
/// product bought on its `MONTHLY` plan is billed the plan's price each month; twelve payments make
/// one commitment, which renews as a new one unless cancelled; cancelling mid-commitment still
/// bills the remaining months.
final class CommitmentPlanTests: XCTestCase {
  typealias F = FixtureCatalog
  let month = SubscriptionPeriod(value: 1, unit: .month)

  private func store() throws -> TestStore { try TestStore(catalog: F.withBillingPlans()) }

  private func buyMonthly(_ store: TestStore, product: Product.ID = F.yearly) throws -> PaymentTransaction {
    var payment = Payment(productID: product)
    payment.billingPlanType = BillingPlan.monthly
    let id = try store.queue.add(payment)
    return try XCTUnwrap(try store.queue.transaction(id))
  }

  private func chain(_ store: TestStore) throws -> [PaymentTransaction] {
    try store.queue.history().filter { $0.productKind == .autoRenewableSubscription && $0.state == .purchased }
      .sorted { $0.purchaseDate < $1.purchaseDate }
  }

  func testAMonthlyPlanPurchaseIsTheFirstOfTwelveMonthlyPaymentsOfOneCommitment() throws {
    let store = try store()
    let first = try buyMonthly(store)
    XCTAssertEqual(first.state, .purchased)
    XCTAssertEqual(first.price, F.monthlyPlanPrice)
    XCTAssertEqual(first.billingPlanType, BillingPlan.monthly)
    XCTAssertEqual(first.expiresDate, month.advance(TestStore.start))
    let commitment = try XCTUnwrap(first.commitment)
    XCTAssertEqual(commitment.billingPeriodNumber, 1)
    XCTAssertEqual(commitment.totalBillingPeriods, 12)
    XCTAssertEqual(commitment.expiresDate, month.advance(TestStore.start, times: 12))
    XCTAssertEqual(commitment.price, F.commitmentPrice)

    let payload = TestStore.payload(of: first.signedTransaction)
    XCTAssertEqual(payload["billingPlanType"] as? String, "MONTHLY")
    XCTAssertEqual(payload["price"] as? Int, 2_990)
    let info = try XCTUnwrap(payload["commitmentInfo"] as? [String: Any])
    XCTAssertEqual(info["billingPeriodNumber"] as? Int, 1)
    XCTAssertEqual(info["totalBillingPeriods"] as? Int, 12)
    XCTAssertEqual(info["commitmentPrice"] as? Int, 35_880)
    XCTAssertEqual(info["commitmentExpiresDate"] as? Int64, SignedPayloads.milliseconds(commitment.expiresDate))

    let renewal = TestStore.payload(of: first.signedRenewalInfo ?? store.queue.subscriptions().first?.signedRenewalInfo)
    XCTAssertEqual(renewal["renewalBillingPlanType"] as? String, "MONTHLY")
    XCTAssertEqual(renewal["renewalPrice"] as? Int, 2_990)
    XCTAssertEqual(renewal["autoRenewStatus"] as? Int, 1)
    let renewalCommitment = try XCTUnwrap(renewal["commitmentInfo"] as? [String: Any])
    XCTAssertEqual(renewalCommitment["commitmentAutoRenewStatus"] as? Int, 1)
    XCTAssertEqual(renewalCommitment["commitmentAutoRenewProductId"] as? String, F.yearly.rawValue)
    XCTAssertEqual(renewalCommitment["commitmentRenewalBillingPlanType"] as? String, "MONTHLY")
    XCTAssertEqual(renewalCommitment["commitmentRenewalPrice"] as? Int, 35_880)
    XCTAssertEqual(renewalCommitment["commitmentRenewalDate"] as? Int64, SignedPayloads.milliseconds(commitment.expiresDate))
  }

  func testTwelvePaymentsMakeOneCommitmentThenANewCommitmentBegins() throws {
    let store = try store()
    let first = try buyMonthly(store)
    let end = try XCTUnwrap(first.commitment?.expiresDate)
    try store.queue.advance(to: end.addingTimeInterval(-1))
    let year = try chain(store)
    XCTAssertEqual(year.map { $0.commitment?.billingPeriodNumber }, Array(1...12))
    XCTAssertEqual(Set(year.map(\.price)), [F.monthlyPlanPrice])
    XCTAssertEqual(Set(year.compactMap { $0.commitment?.expiresDate }), [end])
    XCTAssertEqual(year.last?.expiresDate, end, "the twelfth month ends with the commitment")
    XCTAssertEqual(year.dropFirst().map(\.reason), Array(repeating: .renewal, count: 11))
    try store.queue.advance(to: end.addingTimeInterval(1))
    let next = try XCTUnwrap(try chain(store).last)
    XCTAssertEqual(next.commitment?.billingPeriodNumber, 1, "a new commitment")
    XCTAssertEqual(next.commitment?.expiresDate, month.advance(end, times: 12))
    XCTAssertEqual(next.purchaseDate, end)
  }

  func testCancellingMidCommitmentStillBillsTheRemainingMonthsThenExpires() throws {
    let store = try store()
    let first = try buyMonthly(store)
    let end = try XCTUnwrap(first.commitment?.expiresDate)
    try store.queue.advance(to: month.advance(TestStore.start, times: 3).addingTimeInterval(60))
    XCTAssertEqual(try chain(store).count, 4)
    try store.queue.setAutoRenew(false, for: first.id)
    let record = try XCTUnwrap(store.queue.subscriptions().first)
    XCTAssertFalse(record.autoRenew)
    let info = TestStore.payload(of: record.signedRenewalInfo)
    XCTAssertEqual(info["autoRenewStatus"] as? Int, 1, "the committed months still renew")
    XCTAssertEqual((info["commitmentInfo"] as? [String: Any])?["commitmentAutoRenewStatus"] as? Int, 0)
    try store.queue.advance(to: month.advance(end, times: 3))
    let paid = try chain(store)
    XCTAssertEqual(paid.count, 12, "all twelve payments of the commitment, none after")
    XCTAssertEqual(paid.last?.commitment?.billingPeriodNumber, 12)
    let ended = try XCTUnwrap(store.queue.subscriptions().first)
    XCTAssertEqual(ended.status, .expired)
    XCTAssertEqual(ended.expirationIntent, .customerCancelled)
    XCTAssertEqual(ended.expiresDate, end)
  }

  func testABillingIssueMidCommitmentInterruptsAccessAndRecoveryContinuesTheCommitment() throws {
    let store = try store()
    let first = try buyMonthly(store)
    try store.queue.perform(.setControl(.billingRetry(true)))
    try store.queue.advance(to: month.advance(TestStore.start).addingTimeInterval(60))
    XCTAssertEqual(store.queue.subscriptions().first?.status, .inBillingRetry)
    XCTAssertEqual(try chain(store).count, 1)
    try store.queue.perform(.setControl(.billingRetry(false)))
    try store.queue.perform(.resolveBillingIssue(first.id))
    let recovered = try XCTUnwrap(try chain(store).last)
    XCTAssertEqual(recovered.commitment?.billingPeriodNumber, 2)
    XCTAssertEqual(recovered.commitment?.expiresDate, first.commitment?.expiresDate)
    XCTAssertEqual(recovered.price, F.monthlyPlanPrice)
  }

  func testAPlanTheCatalogDoesNotSellIsRefusedBeforeAnyCharge() throws {
    let store = try store()
    for product in [F.monthly, F.coins] {
      let refused = try buyMonthly(store, product: product)
      XCTAssertEqual(refused.state, .failed, "\(product)")
      XCTAssertEqual(refused.error, .paymentInvalid, "\(product)")
    }
    let withoutPlans = try TestStore()
    let refused = try buyMonthly(withoutPlans)
    XCTAssertEqual(refused.error, .paymentInvalid)
  }

  func testTheUpFrontPlanIsBilledOnceAYearWithoutACommitment() throws {
    let store = try store()
    var payment = Payment(productID: F.yearly)
    payment.billingPlanType = BillingPlan.upFront
    let id = try store.queue.add(payment)
    let yearly = try XCTUnwrap(try store.queue.transaction(id))
    XCTAssertEqual(yearly.price, Decimal(string: "29.99"))
    XCTAssertNil(yearly.commitment)
    let payload = TestStore.payload(of: yearly.signedTransaction)
    XCTAssertEqual(payload["billingPlanType"] as? String, "BILLED_UPFRONT")
    XCTAssertNil(payload["commitmentInfo"])
    let renewal = TestStore.payload(of: store.queue.subscriptions().first?.signedRenewalInfo)
    XCTAssertEqual(renewal["renewalBillingPlanType"] as? String, "BILLED_UPFRONT")
    XCTAssertNil(renewal["commitmentInfo"])
  }

  func testTheSheetQuotesTheMonthAndStatesTheCommitment() throws {
    let store = try store()
    try store.queue.perform(.setControl(.dialogs(true)))
    var payment = Payment(productID: F.yearly)
    payment.billingPlanType = BillingPlan.monthly
    _ = try store.queue.add(payment)
    guard case .confirm(_, _, _, _, let price, let terms) = try XCTUnwrap(store.queue.prompt) else {
      return XCTFail("no purchase sheet: \(String(describing: store.queue.prompt))")
    }
    XCTAssertEqual(price.amount, F.monthlyPlanPrice)
    XCTAssertEqual(terms?.regularPeriod, month)
    XCTAssertEqual(terms?.commitment?.payments, 12)
    XCTAssertEqual(terms?.commitment?.total.amount, F.commitmentPrice)
  }

  func testAnUpgradeOnTheMonthlyPlanStartsACommitmentToTheNewProduct() throws {
    let store = try store()
    let monthly = try store.buy(F.monthly)
    try store.queue.advance(by: 10 * 86_400)
    let upgrade = try buyMonthly(store)
    XCTAssertEqual(upgrade.state, .purchased)
    XCTAssertEqual(upgrade.originalID, monthly.originalID, "the same chain")
    XCTAssertEqual(upgrade.price, F.monthlyPlanPrice)
    XCTAssertEqual(upgrade.commitment?.billingPeriodNumber, 1)
    XCTAssertEqual(upgrade.commitment?.expiresDate, month.advance(upgrade.purchaseDate, times: 12))
    let old = try XCTUnwrap(try chain(store).last { $0.productID == F.monthly })
    XCTAssertTrue(old.isUpgraded, "the old period is refunded pro rata")
  }

  func testARefundMidCommitmentRevokesTheSubscriptionAndEndsThePayments() throws {
    let store = try store()
    let first = try buyMonthly(store)
    try store.queue.advance(to: month.advance(TestStore.start, times: 2).addingTimeInterval(60))
    let current = try XCTUnwrap(try chain(store).last)
    try store.queue.refund(current.id)
    XCTAssertEqual(store.queue.subscriptions().first?.status, .revoked)
    try store.queue.advance(to: try XCTUnwrap(first.commitment?.expiresDate).addingTimeInterval(60))
    XCTAssertEqual(try chain(store).count, 3, "no payment after the refund")
  }

  func testADowngradeMidCommitmentWaitsForTheCommitmentsEnd() throws {
    let store = try store()
    let first = try buyMonthly(store)
    let end = try XCTUnwrap(first.commitment?.expiresDate)
    try store.queue.advance(to: month.advance(TestStore.start).addingTimeInterval(60))
    _ = try store.buy(F.monthly)
    XCTAssertEqual(store.queue.subscriptions().first?.renewalProductID, F.monthly)
    try store.queue.advance(to: end.addingTimeInterval(-60))
    let committed = try chain(store)
    XCTAssertEqual(Set(committed.map(\.productID)), [F.yearly], "the commitment's months stay on the yearly plan")
    XCTAssertEqual(committed.last?.commitment?.billingPeriodNumber, 12)
    try store.queue.advance(to: end.addingTimeInterval(60))
    let after = try XCTUnwrap(try chain(store).last)
    XCTAssertEqual(after.productID, F.monthly)
    XCTAssertNil(after.commitment)
    XCTAssertEqual(after.price, Decimal(string: "2.99"))
  }
}
