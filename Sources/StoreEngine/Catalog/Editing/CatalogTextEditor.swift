import Foundation

/// Edits a `.storekit` file's text, not a re-serialisation of it (issue 26): a value is changed by
/// replacing its own bytes, an entry is added in the file's own indentation and key order, so
/// everything else (key order, escaping, number spelling, blank lines, CRLF, a byte order mark,
/// unknown keys) stays as whoever wrote the file left it, and a one-price edit is a one-line diff.
///
/// ```swift
/// var editor = CatalogTextEditor(bytes: Array(data), seed: 7)
/// try editor.apply([.price("1.99")], to: "com.example.coins")
/// try editor.add(.autoRenewableSubscription, id: "pro.monthly", edits: [.group("Pro")])
/// editor.bytes  // the file with both changes
/// ```
public struct CatalogTextEditor: Sendable {
  /// The file's bytes, with the edits made so far.
  public var bytes: [UInt8] { text.bytes }
  var text: JSONTextEditor
  /// Makes `internalID`s; injected so tests are repeatable.
  var generator: SplitMix64

  /// - Parameter seed: seeds the generator of new `internalID`s (each is checked unique in the file).
  public init(bytes: [UInt8], seed: UInt64 = 0) {
    text = JSONTextEditor(bytes: bytes)
    generator = SplitMix64(seed: seed)
  }

  /// Whether `text` is a price the editor writes: digits with at most one point inside.
  public static func isPrice(_ text: String) -> Bool {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    return !trimmed.isEmpty && trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
      && trimmed.filter({ $0 == "." }).count <= 1 && trimmed.first != "." && trimmed.last != "."
      && Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) != nil
  }

  /// The file with `product`'s `displayPrice` set to `price` (a decimal number ≥ 0, written as
  /// given, as Xcode writes prices: a JSON string).
  public func settingPrice(_ price: String, of product: String) throws(Failure) -> [UInt8] {
    guard Self.isPrice(price) else { throw .invalidPrice(price) }
    var copy = self
    try copy.apply([.price(price.trimmingCharacters(in: .whitespaces))], to: product)
    return copy.bytes
  }

  /// Which text of a localization ``setting(_:to:locale:of:)`` sets.
  public enum LocalizedText: String, Sendable {
    case name = "displayName"
    case description
  }

  /// The file with `product`'s localized `text` for `locale` (nil: the first localization) set to
  /// `value`, written as a JSON string (escaped as JSONSerialization escapes it).
  public func setting(_ text: LocalizedText, to value: String, locale: String?, of product: String) throws(Failure) -> [UInt8] {
    var copy = self
    try copy.apply([text == .name ? .name(value, locale: locale) : .description(value, locale: locale)], to: product)
    return copy.bytes
  }

  // MARK: - Finding things

  /// Every product's id and the path of its object, in file order.
  func products() -> [(id: String, path: JSONPath)] {
    text.map.members(named: "productID").compactMap { path, range in
      guard path.components.count >= 3, let id = Self.string(Array(text.bytes[range])) else { return nil }
      return (id, JSONPath(Array(path.components.dropLast())))
    }
  }

  func path(of product: String) throws(Failure) -> JSONPath {
    let all = products()
    guard let found = all.first(where: { $0.id == product }) else { throw .unknownProduct(product, known: all.map(\.id).sorted()) }
    return found.path
  }

  /// Whether the object at `path` is in a subscription group's `subscriptions`.
  func isSubscription(_ path: JSONPath) -> Bool {
    path.components.dropLast().last == .key("subscriptions")
  }

  /// The group path (`subscriptionGroups[i]`) of a subscription's path.
  func groupPath(of path: JSONPath) -> JSONPath { JSONPath(Array(path.components.dropLast(2))) }

  /// Every group (regular ones, in `subscriptionGroups`): its path, id and name.
  func groups() -> [(path: JSONPath, id: String, name: String)] {
    let array = JSONPath.root.appending("subscriptionGroups")
    return (0..<text.map.count(of: array)).map { index in
      let path = array.appending(index)
      return (path, text.string(at: path.appending("id")) ?? "", text.string(at: path.appending("name")) ?? "")
    }
  }

  /// The catalog's locale (`settings._locale`), for a localization added without one.
  var defaultLocale: String {
    text.string(at: JSONPath.root.appending("settings").appending("_locale")).flatMap { $0.isEmpty ? nil : $0 } ?? "en_US"
  }

  /// A new 8-digit hexadecimal id no value in the file already uses.
  mutating func newInternalID() -> String {
    while true {
      let id = String(format: "%08X", UInt32(truncatingIfNeeded: generator.next()))
      if !text.bytes.withUnsafeBufferPointer({ Self.contains(Array("\"\(id)\"".utf8), in: $0) }) { return id }
    }
  }

  private static func contains(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
    guard needle.count <= haystack.count, let first = needle.first else { return false }
    var index = 0
    while index <= haystack.count - needle.count {
      if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
      index += 1
    }
    return false
  }

  // MARK: - Literals

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
