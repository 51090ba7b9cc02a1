import StoreEngine

extension LineParser {
  /// The StoreKit 2 verbs: `entitlements`, `unfinished`, `latest PRODUCT`, `sync`,
  /// `subscription-status PRODUCT|GROUP`, `app-transaction`, `manage-subscriptions`.
  static let storeKit2Verbs = [
    "entitlements", "unfinished", "latest", "sync", "subscription-status", "app-transaction", "manage-subscriptions",
  ]

  /// The StoreKit 2 expectations: `entitlement`, `no-entitlement`, `sk2-unfinished`, `purchase-result`, `updates`.
  static let storeKit2Expectations = ["entitlement", "no-entitlement", "sk2-unfinished", "purchase-result", "updates"]

  mutating func storeKit2Call() throws(ScenarioIssue) -> StoreKit2Call {
    switch verb.text {
    case "entitlements": return .currentEntitlements
    case "unfinished": return .unfinished
    case "latest": return .latest(try product())
    case "sync": return .sync
    case "subscription-status": return .subscriptionStatus(group: try subscriptionGroup())
    case "app-transaction": return .appTransaction
    default: return .manageSubscriptions
    }
  }

  /// A subscription group named by its id or by one of its products.
  private mutating func subscriptionGroup() throws(ScenarioIssue) -> String {
    let token = try next("a subscription product or group id")
    if let group = catalog.product(Product.ID(token.text))?.subscription?.groupID { return group }
    let groups = Array(Set(catalog.products.compactMap { $0.subscription?.groupID })).sorted()
    guard groups.contains(token.text) else {
      let candidates = groups + catalog.products.filter { $0.subscription != nil }.map(\.id.rawValue)
      let hint = suggestion(for: token.text, in: candidates).map { " Did you mean '\($0)'?" } ?? ""
      throw issue(token.column, "'\(token.text)' is not an auto-renewable subscription or a subscription group.\(hint)")
    }
    return token.text
  }

  mutating func storeKit2Expectation(_ subject: ScenarioToken) throws(ScenarioIssue) -> ScenarioStep.Expectation {
    switch subject.text {
    case "entitlement": return .entitlement(try product(), true)
    case "no-entitlement": return .entitlement(try product(), false)
    case "sk2-unfinished": return .storeKit2Unfinished(try integer("a count", range: 0...1_000_000))
    case "updates": return .updates(try integer("a count", range: 0...1_000_000))
    default:
      // `expect purchase-result [last|PRODUCT] [threw] RESULT`
      var product: Product.ID?
      if let first = positionals.first, first.text == "last" || catalog.product(Product.ID(first.text)) != nil {
        positionals.removeFirst()
        if first.text != "last" { product = Product.ID(first.text) }
      }
      let threw = positionals.first?.text == "threw"
      if threw { positionals.removeFirst() }
      let token = try next("success, verified, unverified, pending, userCancelled or an error name")
      guard let outcome = PurchaseOutcome(parsing: token.text, thrown: threw) else {
        throw issue(
          token.column,
          "Unknown purchase result '\(token.text)'; use success, verified, unverified, pending, userCancelled or a StoreKitError or Product.PurchaseError name.")
      }
      return .purchaseResult(product, outcome)
    }
  }
}
