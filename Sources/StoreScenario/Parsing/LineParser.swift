import Foundation
import StoreEngine

/// Parses the arguments of one scenario line: positional words, then `key=value` options.
struct LineParser {
  let number: Int
  let verb: ScenarioToken
  var positionals: [ScenarioToken]
  var options: [String: (value: String, column: Int)] = [:]
  let catalog: Catalog
  /// Problems that do not stop the line from running, such as a product the catalog lacks.
  var warnings: [ScenarioIssue] = []

  init(number: Int, verb: ScenarioToken, tokens: [ScenarioToken], catalog: Catalog) {
    self.number = number
    self.verb = verb
    self.catalog = catalog
    var positionals: [ScenarioToken] = []
    for token in tokens {
      if let equals = token.text.firstIndex(of: "="), equals != token.text.startIndex {
        let key = String(token.text[..<equals])
        let valueColumn = token.column + token.text.distance(from: token.text.startIndex, to: equals) + 1
        options[key] = (String(token.text[token.text.index(after: equals)...]), valueColumn)
      } else {
        positionals.append(token)
      }
    }
    self.positionals = positionals
  }

  func issue(_ column: Int, _ message: String) -> ScenarioIssue {
    ScenarioIssue(line: number, column: column, message: message)
  }

  /// The closest candidate to `word`, if it is close enough to be a likely typo.
  func suggestion(for word: String, in candidates: [String]) -> String? {
    NearMatch.closest(to: word, in: candidates)
  }

  /// Column just past the last word, for "missing argument" messages.
  var endColumn: Int {
    let last = positionals.last ?? verb
    return last.column + last.text.count + 1
  }

  mutating func next(_ what: String) throws(ScenarioIssue) -> ScenarioToken {
    guard !positionals.isEmpty else {
      throw issue(endColumn, "'\(verb.text)' needs \(what).")
    }
    return positionals.removeFirst()
  }

  mutating func option(_ key: String) -> (value: String, column: Int)? {
    options.removeValue(forKey: key)
  }

  /// Fails on words or options the verb did not use.
  func finishArguments() throws(ScenarioIssue) {
    if let extra = positionals.first {
      throw issue(extra.column, "Unexpected argument '\(extra.text)' for '\(verb.text)'.")
    }
    if let (key, option) = options.min(by: { $0.value.column < $1.value.column }) {
      throw issue(option.column - key.count - 1, "Unknown option '\(key)' for '\(verb.text)'.")
    }
  }

  /// - Parameter unknownWarning: when set, an id the catalog lacks is a warning (this sentence
  ///   follows "not in the catalog"), not an issue: the store answers a payment for it, as Apple's
  ///   answers one for a product that is not (or no longer) on sale, and its old purchases count.
  mutating func product(_ what: String = "a product id", unknownWarning: String? = nil) throws(ScenarioIssue) -> Product.ID {
    let token = try next(what)
    let id = Product.ID(token.text)
    guard catalog.product(id) != nil else {
      let hint = suggestion(for: token.text, in: catalog.products.map(\.id.rawValue)).map { " Did you mean '\($0)'?" } ?? ""
      if let unknownWarning {
        warnings.append(issue(token.column, "Product '\(token.text)' is not in the catalog; \(unknownWarning)\(hint)"))
        return id
      }
      throw issue(token.column, "Unknown product '\(token.text)'; it is not in the catalog.\(hint)")
    }
    return id
  }

  mutating func reference() throws(ScenarioIssue) -> TransactionReference {
    let token = try next("a transaction id, 'last' or a product id")
    if token.text == "last" { return .last }
    if let value = UInt64(token.text) { return .id(PaymentTransaction.ID(value)) }
    if catalog.product(Product.ID(token.text)) != nil { return .product(Product.ID(token.text)) }
    throw issue(token.column, "'\(token.text)' is not a transaction id, 'last' or a product in the catalog.")
  }

  mutating func onOff() throws(ScenarioIssue) -> Bool {
    let token = try next("'on' or 'off'")
    switch token.text {
    case "on", "true", "yes": return true
    case "off", "false", "no": return false
    default: throw issue(token.column, "Expected 'on' or 'off', found '\(token.text)'.")
    }
  }

  mutating func integer(_ what: String, range: ClosedRange<Int>) throws(ScenarioIssue) -> Int {
    let token = try next(what)
    guard let value = Int(token.text), range.contains(value) else {
      throw issue(token.column, "Expected \(what) (\(range.lowerBound)...\(range.upperBound)), found '\(token.text)'.")
    }
    return value
  }

  func duration(_ text: String, column: Int) throws(ScenarioIssue) -> ScenarioDuration {
    guard let duration = ScenarioDuration(text) else {
      throw issue(column, "Invalid duration '\(text)'; use 30s, 5m, 2h, 70d, 2w or ISO 8601 like P1M.")
    }
    return duration
  }

  mutating func durationArgument() throws(ScenarioIssue) -> ScenarioDuration {
    let token = try next("a duration (30s, 5m, 2h, 70d, P1M)")
    return try duration(token.text, column: token.column)
  }

  mutating func optionalDuration(_ key: String) throws(ScenarioIssue) -> ScenarioDuration? {
    guard let option = option(key) else { return nil }
    return try duration(option.value, column: option.column)
  }

  mutating func storeKitError() throws(ScenarioIssue) -> StoreKitError {
    let token = try next("an error name or code (paymentCancelled, 2, server)")
    guard let error = StoreKitError(parsing: token.text) else {
      let names = Array(StoreKitError.names.values) + StoreKit2Error.all.map(\.name)
      let hint = suggestion(for: token.text, in: names).map { " Did you mean '\($0)'?" } ?? ""
      guard Int(token.text) == nil else {
        // Surprising behaviour in the audit: `fail purchase 21` used to invent a `code21`.
        let known = StoreKitError.names.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        throw issue(token.column, "Unknown StoreKit error '\(token.text)'; SKError.Code defines \(known.joined(separator: ", ")), and 5002 is the sandbox server's (server).")
      }
      throw issue(token.column, "Unknown StoreKit error '\(token.text)'.\(hint)")
    }
    return error
  }

  mutating func timeRate() throws(ScenarioIssue) -> TimeRate {
    let token = try next("a time rate name")
    guard let rate = TimeRate.preset(named: token.text) else {
      let names = TimeRate.all.map(\.name)
      throw issue(token.column, "Unknown time rate '\(token.text)'. Known: \(names.joined(separator: ", ")).")
    }
    return rate
  }
}
