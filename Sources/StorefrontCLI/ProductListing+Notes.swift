import Foundation
import StoreEngine

/// The lines under the `catalog show` table for what a row cannot hold: what bundles and suites
/// include, and billing plans beside the up-front price.
extension ProductListing {
  func notes() -> String {
    var lines: [String] = []
    let packages = rows.filter { !($0.product.subscription?.bundledSubscriptions.isEmpty ?? true) }
    if !packages.isEmpty {
      lines.append("\nBundles and suites:")
      for row in packages {
        let included = (row.product.subscription?.bundledSubscriptions ?? []).map(includedName).joined(separator: ", ")
        let alone = row.group?.kind == .suite ? " (sold only in the suite)" : ""
        lines.append("  \(row.product.id) (\(row.name)) includes \(included)\(alone)")
      }
    }
    let planned = rows.filter { ($0.product.subscription?.billingPlanTypes ?? []).contains(BillingPlan.monthly) }
    if !planned.isEmpty {
      lines.append("\nBilling plans:")
      for row in planned {
        let plans = (row.product.subscription?.billingPlans ?? []).filter(\.isEnabled).map(planText)
        lines.append("  \(row.product.id): \(plans.joined(separator: "; "))")
      }
    }
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  /// A price of the catalog as the listing's storefront charges it.
  func charged(_ amount: Decimal) -> Money {
    Money(charging: amount, in: storefront)
  }

  /// An included subscription's name: a catalog product's localized name (bundles), else its own.
  func includedName(_ included: BundledSubscription) -> String {
    if let product = catalog.product(included.productID) { return product.displayName(locale: locale) }
    let name = Localization.best(in: included.localizations, for: locale)?.displayName ?? ""
    return name.isEmpty ? included.referenceName : name
  }

  private func planText(_ plan: BillingPlan) -> String {
    let price = charged(plan.price).formatted(locale: locale)
    switch plan.type {
    case BillingPlan.upFront: return "up front \(price)"
    case BillingPlan.monthly:
      return "monthly \(price) with a 12-month commitment (\(charged(plan.commitmentPrice).formatted(locale: locale)))"
    default: return "\(plan.type) \(price)"
    }
  }
}
