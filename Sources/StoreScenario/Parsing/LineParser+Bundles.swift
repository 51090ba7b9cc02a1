import StoreEngine

extension LineParser {
  /// `expect bundle REF BUNDLE|none`, `expect previous REF PRODUCT|none`,
  /// `expect revocation PRODUCT REASON|none` (subscription bundles and suites, DECISIONS §47).
  mutating func bundleExpectation(_ subject: ScenarioToken) throws(ScenarioIssue) -> ScenarioStep.Expectation {
    switch subject.text {
    case "bundle":
      let reference = try reference()
      if positionals.first?.text == "none" {
        positionals.removeFirst()
        return .bundle(reference, nil)
      }
      return .bundle(reference, try product())
    case "previous":
      let reference = try reference()
      if positionals.first?.text == "none" {
        positionals.removeFirst()
        return .previous(reference, nil)
      }
      return .previous(reference, try product())
    default:
      let product = try product()
      let token = try next("a revocation reason (other, developerIssue, upgradedToBundle) or none")
      guard ["other", "developerIssue", "upgradedToBundle", "none"].contains(token.text) else {
        throw issue(token.column, "Unknown revocation reason '\(token.text)'; use other, developerIssue, upgradedToBundle or none.")
      }
      return .revocation(product, token.text == "none" ? nil : token.text)
    }
  }
}
