import Foundation
import StoreEngine

/// Scenario lines for monthly subscriptions with a 12-month commitment (DECISIONS §43).
extension LineParser {
  /// `plan=monthly|upfront` of `buy`: the billing plan (`Product.PurchaseOption.billingPlanType`).
  mutating func billingPlan() throws(ScenarioIssue) -> String? {
    guard let plan = option("plan") else { return nil }
    switch plan.value {
    case "monthly", BillingPlan.monthly: return BillingPlan.monthly
    case "upfront", "up-front", BillingPlan.upFront: return BillingPlan.upFront
    default:
      throw issue(plan.column, "Unknown plan '\(plan.value)'; write plan=monthly (12-month commitment) or plan=upfront.")
    }
  }

  /// `expect commitment REF N/TOTAL|none`.
  mutating func commitmentExpectation() throws(ScenarioIssue) -> ScenarioStep.Expectation {
    let reference = try reference()
    let token = try next("a payment of the commitment such as 3/12, or none")
    if token.text == "none" { return .commitment(reference, period: nil, total: nil) }
    let parts = token.text.split(separator: "/")
    guard parts.count == 2, let period = Int(parts[0]), let total = Int(parts[1]), total >= 1, (1...total).contains(period) else {
      throw issue(token.column, "Invalid commitment '\(token.text)'; write the payment and the total such as 3/12, or none.")
    }
    return .commitment(reference, period: period, total: total)
  }

  /// `expect price REF AMOUNT`.
  mutating func priceExpectation() throws(ScenarioIssue) -> ScenarioStep.Expectation {
    let reference = try reference()
    let token = try next("an amount such as 2.99")
    guard let amount = Decimal(string: token.text, locale: Locale(identifier: "en_US_POSIX")), amount >= 0 else {
      throw issue(token.column, "Invalid amount '\(token.text)'; write a number such as 2.99.")
    }
    return .price(reference, amount)
  }
}
