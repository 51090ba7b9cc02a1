import Foundation

/// Typed reads of one member, reporting a missing required member or a value of the wrong type.
extension CatalogWalker {
  mutating func string(_ object: [String: JSONValue], _ key: String, in path: JSONPath, required: Bool = false, example: String = "…") -> String? {
    guard let value = present(object, key, in: path, required: required, example: "\"\(example)\"") else { return nil }
    if let text = value.stringValue { return text }
    report(path.appending(key), "must be a string, not \(value.kind)", hint: "put the value in double quotes, e.g. \"\(key)\" : \"\(example)\"")
    return nil
  }

  mutating func bool(_ object: [String: JSONValue], _ key: String, in path: JSONPath) -> Bool? {
    guard let value = present(object, key, in: path, required: false, example: "false") else { return nil }
    if case .bool(let flag) = value { return flag }
    // JSONSerialization read 1 and 0 as true and false; files that relied on it keep working.
    if case .number(let number) = value { return number != 0 }
    report(path.appending(key), "must be true or false, not \(value.kind)", hint: "write \"\(key)\" : true or \"\(key)\" : false, without quotes")
    return nil
  }

  mutating func int(_ object: [String: JSONValue], _ key: String, in path: JSONPath, required: Bool = false, example: String = "1") -> Int? {
    guard let value = present(object, key, in: path, required: required, example: example) else { return nil }
    if case .number(let number) = value, let whole = Int(exactly: number) { return whole }
    report(path.appending(key), "must be a whole number, not \(value.kind)", hint: "write \"\(key)\" : \(example), without quotes")
    return nil
  }

  /// A `displayPrice`-style decimal string: digits, optionally a dot and more digits.
  mutating func price(_ object: [String: JSONValue], _ key: String, in path: JSONPath, required: Bool = false) -> Decimal? {
    guard let value = present(object, key, in: path, required: required, example: "\"0.99\"") else { return nil }
    guard let text = value.stringValue else {
      var shown = value.kind
      if case .number(let number) = value { shown = JSONValue.describe(number) }
      report(path.appending(key), "price must be a string, not \(shown)", hint: "Xcode writes prices as strings: \"\(key)\" : \"\(shown == value.kind ? "0.99" : shown)\"")
      return nil
    }
    if let price = Self.parsePrice(text) { return price }
    switch DecimalCommaPrice(text) {
    case .unambiguous(let dotted):
      if let price = Self.parsePrice(dotted) {
        warn(path.appending(key), "'\(text)' has a decimal comma; read as \(dotted)", hint: "write \"\(dotted)\": Xcode writes prices with a dot")
        return price
      }
    case .ambiguous(let readings):
      let choices = readings.map { "\"\($0.text)\" (\($0.meaning))" }.joined(separator: " or ")
      let why = readings.count > 1 ? "its comma could separate decimals or group thousands" : "prices have a dot for decimals and no grouping"
      report(path.appending(key), "'\(text)' is not a price: \(why)", hint: "write \(choices)")
      return nil
    case .none:
      break
    }
    report(path.appending(key), "'\(text)' is not a price", hint: "write a decimal number with a dot and no currency symbol or grouping, e.g. \"0.99\" or \"1200\"; the storefront decides the currency")
    return nil
  }

  /// An ISO 8601 period of one unit (`P1W`, `P1M`, `P1Y`).
  mutating func period(_ object: [String: JSONValue], _ key: String, in path: JSONPath, required: Bool = false) -> SubscriptionPeriod? {
    guard let text = string(object, key, in: path, required: required, example: "P1M") else { return nil }
    if let period = SubscriptionPeriod(iso8601: text) { return period }
    report(path.appending(key), "'\(text)' is not an ISO 8601 subscription period", hint: "write P<number><unit> with unit D (days), W (weeks), M (months) or Y (years), e.g. P1W, P1M, P3M, P1Y")
    return nil
  }

  /// The member's value; reports it when required and missing. `null` counts as missing.
  private mutating func present(_ object: [String: JSONValue], _ key: String, in path: JSONPath, required: Bool, example: String) -> JSONValue? {
    if let value = object[key], !value.isNull { return value }
    if required {
      report(path, "missing required field '\(key)'", hint: "add \"\(key)\" : \(example)")
    }
    return nil
  }

  /// Parses `123`, `0.99`, `38.00` exactly; rejects signs, exponents, commas, spaces and symbols.
  static func parsePrice(_ text: String) -> Decimal? {
    var digitsBefore = 0
    var digitsAfter = 0
    var sawDot = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if sawDot { digitsAfter += 1 } else { digitsBefore += 1 }
      case UInt8(ascii: ".") where !sawDot:
        sawDot = true
      default:
        return nil
      }
    }
    guard digitsBefore > 0, !sawDot || digitsAfter > 0 else { return nil }
    return Decimal(string: text, locale: posix)
  }

  private static let posix = Locale(identifier: "en_US_POSIX")
}
