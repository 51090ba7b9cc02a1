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
  ] + LineParser.storeKit2Verbs

  /// Parses all of `text`; returns the steps, or every issue found.
  public func parse(_ text: String) -> Result<[ScenarioStep], ScenarioIssues> {
    var steps: [ScenarioStep] = []
    var issues: [ScenarioIssue] = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let lineNumber = index + 1
      switch ScenarioToken.tokenize(rawLine) {
      case .failure(var issue):
        issue.line = lineNumber
        issues.append(issue)
      case .success(let tokens):
        guard let verb = tokens.first else { continue }
        var line = LineParser(number: lineNumber, verb: verb, tokens: Array(tokens.dropFirst()), catalog: catalog)
        do {
          let action = try line.parse()
          try line.finishArguments()
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
