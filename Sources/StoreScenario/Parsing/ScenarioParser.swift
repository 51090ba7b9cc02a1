import Foundation
import StoreEngine

/// Parses scenario text into validated steps, reporting every problem with its line and column.
public struct ScenarioParser {
  /// The catalog product ids are checked against (unknown ones are issues, with a suggestion).
  public let catalog: Catalog

  /// A parser for scenarios about `catalog`'s products.
  public init(catalog: Catalog) { self.catalog = catalog }

  /// Every verb the language knows, for help and suggestions.
  public static let verbs = [
    "account", "signout", "request", "buy", "store-payment", "confirm", "cancel", "finish", "restore", "approve",
    "decline", "resolve", "refund", "set", "fail", "advance", "relaunch", "clear-history", "auto-renew",
    "expire", "renew", "resolve-billing", "price-increase", "billing-issue", "grace", "time-rate", "expect",
    "delete-transaction", "reset", "family",
    "request-refund", "add-store-payment", "redeem", "server-fault", "notifications", "app", "rescind-consent",
    "offer-codes",
  ] + LineParser.storeKit2Verbs

  /// Parses all of `text`; returns the steps, or every issue found.
  public func parse(_ text: String) -> Result<[ScenarioStep], ScenarioIssues> {
    parse(text, warn: { _ in })
  }

  /// Parses all of `text` as ``parse(_:)`` does, and hands each warning (a line that runs but
  /// probably is not what was meant, such as buying a product the catalog lacks) to `warn`, in order.
  public func parse(_ text: String, warn: (ScenarioIssue) -> Void) -> Result<[ScenarioStep], ScenarioIssues> {
    var steps: [ScenarioStep] = []
    var issues: [ScenarioIssue] = []
    // App Store payments the app kept (`store-payment … answer=later`) and has not added yet.
    var keptStorePayments: Set<Product.ID> = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let lineNumber = index + 1
      switch ScenarioToken.tokenize(rawLine) {
      case .failure(var issue):
        issue.line = lineNumber
        issues.append(issue)
      case .success(let tokens):
        guard let verb = tokens.first else { continue }
        var line = LineParser(number: lineNumber, verb: verb, tokens: Array(tokens.dropFirst()), catalog: catalog)
        do throws(ScenarioIssue) {
          let action = try line.parse()
          try line.finishArguments()
          switch action {
          case .storePayment(let product, .later): keptStorePayments.insert(product)
          case .addStorePayment(let product):
            guard keptStorePayments.remove(product) != nil else {
              throw line.issue(verb.column, "No App Store payment of '\(product)' is waiting to be added; answer it with `store-payment \(product) answer=later` first.")
            }
          default: break
          }
          line.warnings.forEach(warn)
          steps.append(ScenarioStep(line: lineNumber, action: action))
        } catch {
          issues.append(error)
        }
      }
    }
    return issues.isEmpty ? .success(steps) : .failure(ScenarioIssues(issues: issues))
  }
}

/// Every problem found in a scenario file.
public struct ScenarioIssues: Error, Sendable, Equatable {
  /// In file order, at most one a line (the first problem found on it).
  public var issues: [ScenarioIssue]
}
