import Foundation

/// One change to a product, as `catalog set` and `catalog add` take it (`key=value`) and as the
/// TUI's Catalog pane names its fields: `price=1.99`, `name@ko=코인`, `intro=free:P1W`.
public enum CatalogEdit: Equatable, Sendable {
  case price(String)
  case name(String, locale: String?)
  case description(String, locale: String?)
  case referenceName(String)
  case productID(String)
  case familyShareable(Bool)
  /// An auto-renewable subscription's period.
  case period(SubscriptionPeriod)
  /// An auto-renewable subscription's group, by name or id (a new name makes a new group).
  case group(String)
  /// An auto-renewable subscription's level in its group (`groupNumber`; 1 is the highest).
  case level(Int)
  /// The introductory offer (nil: none).
  case intro(CatalogOfferSpec?)
  /// A promotional offer by its offer id (nil: remove it).
  case promotional(id: String, CatalogOfferSpec?)
  /// An offer code by its reference name (nil: remove it).
  case offerCode(name: String, CatalogOfferSpec?)
  /// A win-back offer by its offer id (nil: remove it).
  case winBack(id: String, CatalogOfferSpec?)

  /// Every key, with what its value is: for `--help` and the error for an unknown key.
  public static let keys: [(key: String, value: String)] = [
    ("price", "a decimal number of at least 0, such as 1.99"),
    ("name[@locale]", "the display name (of that locale; a new locale adds a localization)"),
    ("description[@locale]", "the description, likewise"),
    ("reference-name", "the name App Store Connect shows you"),
    ("id", "a new product id"),
    ("family-shareable", "true or false"),
    ("period", "an auto-renewable subscription's period: P1W, P1M, P2M, P3M, P6M or P1Y"),
    ("group", "an auto-renewable subscription's group, by name or id; a new name makes the group"),
    ("level", "its level in the group, 1 (highest) or more"),
    ("intro", "free:P1W, pay-as-you-go:2.49:P1M:3, pay-up-front:8.99:P3M, or none"),
    ("promo@OFFER_ID", "a promotional offer, written as intro is; none removes it"),
    ("code@NAME", "an offer code by its reference name, likewise"),
    ("winback@OFFER_ID", "a win-back offer, likewise"),
  ]

  /// The keys as one line: `price, name[@locale], …`.
  public static var keyList: String { keys.map(\.key).joined(separator: ", ") }

  /// Parses `key=value`.
  public static func parse(_ pair: String) throws(CatalogTextEditor.Failure) -> CatalogEdit {
    guard let equals = pair.firstIndex(of: "=") else { throw .notKeyValue(pair) }
    return try parse(key: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...]))
  }

  public static func parse(key: String, value: String) throws(CatalogTextEditor.Failure) -> CatalogEdit {
    let parts = key.split(separator: "@", maxSplits: 1).map(String.init)
    let base = parts.first ?? key
    let qualifier = parts.count > 1 ? parts[1] : nil
    func offer() throws(CatalogTextEditor.Failure) -> CatalogOfferSpec? {
      try CatalogOfferSpec.parse(value, key: key)
    }
    func needsQualifier() throws(CatalogTextEditor.Failure) -> String {
      guard let qualifier, !qualifier.isEmpty else {
        throw .invalidValue(key: key, value: value, hint: "name the offer: \(base)@ID=\(value)")
      }
      return qualifier
    }
    switch base {
    case "price" where qualifier == nil:
      guard CatalogTextEditor.isPrice(value) else { throw .invalidPrice(value) }
      return .price(value.trimmingCharacters(in: .whitespaces))
    case "name": return .name(value, locale: try qualifier.map { (locale) throws(CatalogTextEditor.Failure) in try CatalogLocale.checked(locale) })
    case "description": return .description(value, locale: try qualifier.map { (locale) throws(CatalogTextEditor.Failure) in try CatalogLocale.checked(locale) })
    case "reference-name" where qualifier == nil: return .referenceName(value)
    case "id" where qualifier == nil:
      guard !value.isEmpty, !value.contains(where: \.isWhitespace) else {
        throw .invalidValue(key: key, value: value, hint: "a product id is not empty and has no spaces, such as com.example.coins")
      }
      return .productID(value)
    case "family-shareable" where qualifier == nil:
      switch value.lowercased() {
      case "true", "yes", "on": return .familyShareable(true)
      case "false", "no", "off": return .familyShareable(false)
      default: throw .invalidValue(key: key, value: value, hint: "write true or false")
      }
    case "period" where qualifier == nil:
      guard let period = SubscriptionPeriod(iso8601: value.uppercased()), CatalogOfferSpec.subscriptionPeriods.contains(period.iso8601) else {
        throw .invalidValue(key: key, value: value, hint: "write one of \(CatalogOfferSpec.subscriptionPeriods.joined(separator: ", "))")
      }
      return .period(period)
    case "group" where qualifier == nil:
      guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw .invalidValue(key: key, value: value, hint: "name the group, such as group=Pro")
      }
      return .group(value)
    case "level" where qualifier == nil:
      guard let level = Int(value), level >= 1 else { throw .invalidValue(key: key, value: value, hint: "write a whole number of at least 1") }
      return .level(level)
    case "intro" where qualifier == nil: return .intro(try offer())
    case "promo": return .promotional(id: try needsQualifier(), try offer())
    case "code": return .offerCode(name: try needsQualifier(), try offer())
    case "winback": return .winBack(id: try needsQualifier(), try offer())
    default: throw .unknownKey(key)
    }
  }

  /// Whether the edit applies only to auto-renewable subscriptions.
  var needsSubscription: Bool {
    switch self {
    case .period, .group, .level, .intro, .promotional, .offerCode, .winBack: true
    default: false
    }
  }

  /// The key this edit is written with.
  public var key: String {
    switch self {
    case .price: "price"
    case .name(_, let locale): locale.map { "name@\($0)" } ?? "name"
    case .description(_, let locale): locale.map { "description@\($0)" } ?? "description"
    case .referenceName: "reference-name"
    case .productID: "id"
    case .familyShareable: "family-shareable"
    case .period: "period"
    case .group: "group"
    case .level: "level"
    case .intro: "intro"
    case .promotional(let id, _): "promo@\(id)"
    case .offerCode(let name, _): "code@\(name)"
    case .winBack(let id, _): "winback@\(id)"
    }
  }
}

/// An offer as the key language writes it: `free:P1W`, `pay-as-you-go:2.49:P1M:3`,
/// `pay-up-front:8.99:P3M`.
public struct CatalogOfferSpec: Equatable, Sendable, CustomStringConvertible {
  public enum Mode: String, Sendable, CaseIterable {
    case free
    case payAsYouGo = "pay-as-you-go"
    case payUpFront = "pay-up-front"

    /// The `paymentMode` a `.storekit` file writes.
    var fileName: String {
      switch self {
      case .free: "free"
      case .payAsYouGo: "payAsYouGo"
      case .payUpFront: "payUpFront"
      }
    }
  }

  public var mode: Mode
  public var price: String?
  public var period: SubscriptionPeriod
  public var periods: Int

  /// The periods App Store Connect offers for a subscription.
  public static let subscriptionPeriods = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]

  public var description: String {
    switch mode {
    case .free: periods == 1 ? "free:\(period)" : "free:\(period):\(periods)"
    case .payAsYouGo: "pay-as-you-go:\(price ?? "0"):\(period):\(periods)"
    case .payUpFront: "pay-up-front:\(price ?? "0"):\(period)"
    }
  }

  /// Parses an offer; `none` (or an empty value) is nil.
  static func parse(_ text: String, key: String) throws(CatalogTextEditor.Failure) -> CatalogOfferSpec? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty || trimmed.lowercased() == "none" { return nil }
    let fields = trimmed.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    let hint = "write free:P1W, pay-as-you-go:2.49:P1M:3 (price, period, how many periods), pay-up-front:8.99:P3M, or none"
    guard let mode = Mode(rawValue: fields[0].lowercased()) else {
      throw .invalidValue(key: key, value: text, hint: "'\(fields[0])' is not a payment mode; " + hint)
    }
    func period(_ text: String) throws(CatalogTextEditor.Failure) -> SubscriptionPeriod {
      guard let period = SubscriptionPeriod(iso8601: text.uppercased()) else {
        throw .invalidValue(key: key, value: text, hint: "'\(text)' is not a period such as P3D, P1W, P1M or P1Y")
      }
      return period
    }
    func count(_ text: String) throws(CatalogTextEditor.Failure) -> Int {
      guard let count = Int(text), count >= 1 else {
        throw .invalidValue(key: key, value: text, hint: "the number of periods is a whole number of at least 1")
      }
      return count
    }
    func price(_ text: String) throws(CatalogTextEditor.Failure) -> String {
      guard CatalogTextEditor.isPrice(text) else { throw .invalidPrice(text) }
      return text
    }
    switch (mode, fields.count) {
    case (.free, 2): return CatalogOfferSpec(mode: .free, price: nil, period: try period(fields[1]), periods: 1)
    case (.free, 3): return CatalogOfferSpec(mode: .free, price: nil, period: try period(fields[1]), periods: try count(fields[2]))
    case (.payAsYouGo, 4):
      return CatalogOfferSpec(mode: .payAsYouGo, price: try price(fields[1]), period: try period(fields[2]), periods: try count(fields[3]))
    case (.payUpFront, 3): return CatalogOfferSpec(mode: .payUpFront, price: try price(fields[1]), period: try period(fields[2]), periods: 1)
    default: throw .invalidValue(key: key, value: text, hint: hint)
    }
  }

  /// The offer as a `.storekit` file writes it, with `internalID`.
  func json(internalID: String, extra: [JSONText.Member] = []) -> JSONText {
    var members = extra + [
      .init("internalID", .string(internalID)),
      .init("paymentMode", .string(mode.fileName)),
      .init("subscriptionPeriod", .string(period.iso8601)),
    ]
    if let price, mode != .free { members.append(.init("displayPrice", .string(price))) }
    if mode == .payAsYouGo || periods > 1 { members.append(.init("numberOfPeriods", .number(String(periods)))) }
    return .object(members)
  }
}

/// Checks locale codes written in a catalog: a language Foundation knows (`ko`), with an optional
/// script (`zh_Hans`) and region (`en_US`, `es_419`).
public enum CatalogLocale {
  public static func isKnown(_ code: String) -> Bool {
    let parts = code.replacingOccurrences(of: "-", with: "_").split(separator: "_", omittingEmptySubsequences: false).map(String.init)
    guard let language = parts.first, languages.contains(language) else { return false }
    var rest = parts.dropFirst()
    if let script = rest.first, script.count == 4, script.allSatisfy(\.isLetter), script.first?.isUppercase == true { rest = rest.dropFirst() }
    if let region = rest.first {
      guard regions.contains(region) else { return false }
      rest = rest.dropFirst()
    }
    return rest.isEmpty
  }

  static func checked(_ code: String) throws(CatalogTextEditor.Failure) -> String {
    guard isKnown(code) else { throw .unknownLocale(code) }
    return code
  }

  private static let languages: Set<String> = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
  private static let regions: Set<String> = Set(Locale.Region.isoRegions.map(\.identifier))
}

extension CatalogEdit {
  /// An offer from its key-language text (`free:P1W`), nil for `none` or a text that is not one.
  public static func offer(_ text: String) -> CatalogOfferSpec? {
    try? CatalogOfferSpec.parse(text, key: "offer")
  }
}
