import Foundation

/// What the catalog walker expects to find at each place in a `.storekit` file.
///
/// Decoding with a shape asks `JSONDecoder` for the expected kind first, so a well-formed file
/// decodes without a single failed guess (each costs a thrown `DecodingError`; guessing made
/// loading about twice as slow). Anything unexpected falls back to the generic ``JSONValue``
/// decoding, so the walker still sees, and reports, what is really there.
///
/// A struct rather than an indirect enum: the shapes live in globals for the whole process, and a
/// global enum keeps its boxes behind pointers tagged with spare bits, which LeakSanitizer does not
/// recognize, so every storefront process built with it reported them as leaks.
struct JSONShape: Sendable {
  enum Kind: Sendable {
    /// Whatever is there.
    case any, string, bool, number, array, object
  }

  let kind: Kind
  /// For an object: the members with a known shape; others may be there too.
  let members: [String: JSONShape]
  /// For an array: the shape of every element (one entry).
  let elements: [JSONShape]

  static let any = JSONShape(kind: .any, members: [:], elements: [])
  static let string = JSONShape(kind: .string, members: [:], elements: [])
  static let bool = JSONShape(kind: .bool, members: [:], elements: [])
  static let number = JSONShape(kind: .number, members: [:], elements: [])

  static func array(of element: JSONShape) -> JSONShape {
    JSONShape(kind: .array, members: [:], elements: [element])
  }

  static func object(_ members: [String: JSONShape]) -> JSONShape {
    JSONShape(kind: .object, members: members, elements: [])
  }

  /// A `.storekit` file, formats 1.0–5.0: every member ``CatalogWalker`` reads.
  static let storeKitFile = JSONShape.object([
    "version": .object(["major": .number, "minor": .number]),
    "identifier": .string,
    "settings": settings,
    "products": .array(of: product),
    "nonRenewingSubscriptions": .array(of: product),
    "subscriptionGroups": .array(of: .object([
      "id": .string, "name": .string, "localizations": .array(of: localization), "subscriptions": .array(of: product),
    ])),
  ])

  private static let localization = JSONShape.object(["locale": .string, "displayName": .string, "description": .string])

  private static let offer = JSONShape.object([
    "paymentMode": .string, "subscriptionPeriod": .string, "numberOfPeriods": .number, "displayPrice": .string,
    "internalID": .string, "offerID": .string, "referenceName": .string, "eligibility": .array(of: .string),
    "isStackable": .bool, "billingPlanType": .string,
  ])

  /// Every product kind; the subscription members are simply absent from the others.
  private static let product = JSONShape.object([
    "productID": .string, "type": .string, "displayPrice": .string, "referenceName": .string,
    "internalID": .string, "familyShareable": .bool, "localizations": .array(of: localization),
    "groupNumber": .number, "recurringSubscriptionPeriod": .string,
    "introductoryOffer": offer, "introductoryOffers": .array(of: offer), "adHocOffers": .array(of: offer),
    "codeOffers": .array(of: offer), "winbackOffers": .array(of: offer),
    "billingPlans": .array(of: .object([
      "billingPlanType": .string, "displayPrice": .string, "commitmentDisplayPrice": .string, "isEnabled": .bool,
    ])),
  ])

  private static let settings = JSONShape.object([
    "_storefront": .string, "_locale": .string, "_timeRate": .number,
    "_askToBuyEnabled": .bool, "_failTransactionsEnabled": .bool, "_disableDialogs": .bool,
    "_billingGracePeriodEnabled": .bool, "_renewalBillingIssuesEnabled": .bool, "_billingIssuesEnabled": .bool,
    "_storeKitErrors": .array(of: .object([
      "name": .string, "enabled": .bool, "current": .object(["index": .number, "type": .string]),
    ])),
  ])
}

/// A whole `.storekit` file decoded along ``JSONShape/storeKitFile``.
struct StoreKitJSON: Decodable {
  let root: JSONValue

  init(from decoder: any Decoder) throws {
    if let object = try? decoder.container(keyedBy: JSONKey.self) {
      root = try JSONShape.read(object, JSONShape.storeKitFile.members)
    } else {
      root = try JSONValue(from: decoder)
    }
  }
}

/// Any member name.
struct JSONKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension JSONShape {
  /// Every member of `object`: the listed ones as their shapes say, the others as whatever they
  /// are. Unlisted members are decoded too because `JSONDecoder` checks a string or number only
  /// when it is decoded, and a file with a bad value anywhere is not valid JSON.
  static func read(_ object: KeyedDecodingContainer<JSONKey>, _ members: [String: JSONShape]) throws -> JSONValue {
    let keys = object.allKeys
    var result: [String: JSONValue] = [:]
    result.reserveCapacity(keys.count)
    for key in keys {
      result[key.stringValue] = try (members[key.stringValue] ?? .any).read(object, key)
    }
    return .object(result)
  }

  /// The member `key` of `object`, read as this shape expects, or as whatever it is.
  private func read(_ object: KeyedDecodingContainer<JSONKey>, _ key: JSONKey) throws -> JSONValue {
    switch kind {
    case .string:
      if let text = try? object.decode(String.self, forKey: key) { return .string(text) }
    case .bool:
      if let flag = try? object.decode(Bool.self, forKey: key) { return .bool(flag) }
    case .number:
      if let number = try? object.decode(Double.self, forKey: key) { return .number(number) }
    case .object:
      if let nested = try? object.nestedContainer(keyedBy: JSONKey.self, forKey: key) {
        return try Self.read(nested, members)
      }
    case .array:
      if var nested = try? object.nestedUnkeyedContainer(forKey: key), let element = elements.first {
        return try element.readElements(&nested)
      }
    case .any:
      break
    }
    return try object.decode(JSONValue.self, forKey: key)
  }

  private func readElements(_ array: inout any UnkeyedDecodingContainer) throws -> JSONValue {
    var elements: [JSONValue] = []
    if let count = array.count { elements.reserveCapacity(count) }
    while !array.isAtEnd {
      elements.append(try readElement(&array))
    }
    return .array(elements)
  }

  /// The next element, read as this shape expects, or as whatever it is. A failed guess leaves the
  /// container where it was, so the fallback reads the same element.
  private func readElement(_ array: inout any UnkeyedDecodingContainer) throws -> JSONValue {
    switch kind {
    case .string:
      if let text = try? array.decode(String.self) { return .string(text) }
    case .bool:
      if let flag = try? array.decode(Bool.self) { return .bool(flag) }
    case .number:
      if let number = try? array.decode(Double.self) { return .number(number) }
    case .object:
      if let nested = try? array.nestedContainer(keyedBy: JSONKey.self) {
        return try Self.read(nested, members)
      }
    case .array:
      if var nested = try? array.nestedUnkeyedContainer(), let element = elements.first {
        return try element.readElements(&nested)
      }
    case .any:
      break
    }
    return try array.decode(JSONValue.self)
  }
}
