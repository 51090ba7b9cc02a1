import Foundation

/// Edits a `.storekit` file's text, not a re-serialisation of it (issue 26): a value is changed by
/// replacing its own bytes, so everything else (key order, escaping, number spelling, blank lines,
/// CRLF, a byte order mark, unknown keys) stays as whoever wrote the file left it, and a one-price
/// edit is a one-line diff.
public struct CatalogTextEditor: Sendable {
  /// Why an edit was refused; nothing is changed.
  public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownProduct(String, known: [String])
    case invalidPrice(String)
    case noPrice(String)
    /// The product has no localization for the locale (`known`: those it has).
    case noLocalization(product: String, locale: String, known: [String])

    public var description: String {
      switch self {
      case .unknownProduct(let id, let known):
        let near = NearMatch.all(near: id, in: known)
        return "no product '\(id)' in the catalog" + (near.isEmpty ? "" : "; did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?")
      case .invalidPrice(let text):
        return "price '\(text)' is not a price: write a number of at least 0 with a point for decimals, such as 0.99"
      case .noPrice(let id):
        return "product '\(id)' has no displayPrice to change"
      case .noLocalization(let id, let locale, let known):
        return "product '\(id)' has no localization '\(locale)'"
          + (known.isEmpty ? "" : "; it has \(known.map { "'\($0)'" }.joined(separator: ", "))")
      }
    }
  }

  /// The file's bytes, as read.
  public let bytes: [UInt8]

  public init(bytes: [UInt8]) { self.bytes = bytes }

  /// The file with `product`'s `displayPrice` set to `price` (a decimal number ≥ 0, written as
  /// given, as Xcode writes prices: a JSON string).
  public func settingPrice(_ price: String, of product: String) throws(Failure) -> [UInt8] {
    let trimmed = price.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      trimmed.filter({ $0 == "." }).count <= 1, trimmed.first != ".", trimmed.last != ".",
      Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) != nil
    else { throw .invalidPrice(price) }
    let ranges = JSONSourceLocator(bytes).valueRanges()
    var known: [String] = []
    for (path, range) in ranges where path.components.last == .key("productID") {
      guard let id = Self.string(Array(bytes[range])) else { continue }
      known.append(id)
      guard id == product else { continue }
      let pricePath = JSONPath(Array(path.components.dropLast()) + [.key("displayPrice")])
      guard let priceRange = ranges[pricePath] else { throw .noPrice(product) }
      return Array(bytes[..<priceRange.lowerBound]) + Array("\"\(trimmed)\"".utf8) + Array(bytes[priceRange.upperBound...])
    }
    throw .unknownProduct(product, known: known.sorted())
  }

  /// Which text of a localization ``setting(_:to:locale:of:)`` sets.
  public enum LocalizedText: String, Sendable {
    case name = "displayName"
    case description
  }

  /// The file with `product`'s localized `text` for `locale` (nil: the first localization) set to
  /// `value`, written as a JSON string (escaped as JSONSerialization escapes it).
  public func setting(_ text: LocalizedText, to value: String, locale: String?, of product: String) throws(Failure) -> [UInt8] {
    let ranges = JSONSourceLocator(bytes).valueRanges()
    guard let productPath = path(of: product, in: ranges) else {
      throw .unknownProduct(product, known: productIDs(in: ranges))
    }
    var locales: [(index: Int, locale: String)] = []
    var index = 0
    while let range = ranges[JSONPath(productPath.components + [.key("localizations"), .index(index), .key("locale")])] {
      locales.append((index, Self.string(Array(bytes[range])) ?? ""))
      index += 1
    }
    guard let chosen = locale.map({ wanted in locales.first { $0.locale == wanted } }) ?? locales.first else {
      throw .noLocalization(product: product, locale: locale ?? "(any)", known: locales.map(\.locale))
    }
    let textPath = JSONPath(productPath.components + [.key("localizations"), .index(chosen.index), .key(text.rawValue)])
    guard let range = ranges[textPath] else {
      throw .noLocalization(product: product, locale: chosen.locale, known: locales.map(\.locale))
    }
    let literal = Self.literal(value)
    return Array(bytes[..<range.lowerBound]) + literal + Array(bytes[range.upperBound...])
  }

  /// The path of the product object whose `productID` is `product`.
  private func path(of product: String, in ranges: [JSONPath: Range<Int>]) -> JSONPath? {
    for (path, range) in ranges where path.components.last == .key("productID") && Self.string(Array(bytes[range])) == product {
      return JSONPath(Array(path.components.dropLast()))
    }
    return nil
  }

  private func productIDs(in ranges: [JSONPath: Range<Int>]) -> [String] {
    ranges.compactMap { path, range in path.components.last == .key("productID") ? Self.string(Array(bytes[range])) : nil }.sorted()
  }

  /// `value` as a JSON string literal; slashes are left unescaped, as Xcode writes them.
  static func literal(_ value: String) -> [UInt8] {
    let data = (try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
    return Array(data.dropFirst().dropLast())
  }

  /// The string a JSON string literal's bytes spell, nil for another value.
  static func string(_ literal: [UInt8]) -> String? {
    guard literal.first == UInt8(ascii: "\"") else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(literal), options: .fragmentsAllowed)) as? String
  }
}
