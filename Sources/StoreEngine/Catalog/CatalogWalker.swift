import Foundation

/// Walks the ``JSONValue`` tree of a `.storekit` file and builds a ``Catalog``, collecting every
/// problem with the JSON path where it is.
struct CatalogWalker {
  /// A problem whose line and column are found later, only if there are problems at all.
  struct PendingIssue {
    var path: JSONPath
    var message: String
    var hint: String
    /// Another place the message refers to (the first of two duplicate ids).
    var related: JSONPath?
  }

  /// Errors: any of them refuses the file.
  private(set) var issues: [PendingIssue] = []
  /// What the file is read despite; kept apart from ``issues`` so that a warning never makes a
  /// product's own checks (which count issues) fail.
  private(set) var warnings: [PendingIssue] = []
  /// Where each product ID was first seen, to report duplicates across all product arrays.
  private var firstSeen: [String: JSONPath] = [:]
  /// Products a bundle includes, checked once every group has been read.
  var bundledReferences: [(id: Product.ID, path: JSONPath)] = []

  init() {}

  mutating func report(_ path: JSONPath, _ message: String, hint: String, related: JSONPath? = nil) {
    issues.append(PendingIssue(path: path, message: message, hint: hint, related: related))
  }

  /// Whether a product with `id` appears anywhere in the file (even one that failed to read).
  func wasSeen(_ id: Product.ID) -> Bool {
    firstSeen[id.rawValue] != nil
  }

  mutating func warn(_ path: JSONPath, _ message: String, hint: String) {
    warnings.append(PendingIssue(path: path, message: message, hint: hint))
  }

  /// The catalog, or nil when the top level is not an object (issues say why).
  mutating func catalog(from root: JSONValue) -> Catalog? {
    guard let object = root.objectValue else {
      report(.root, "the top level must be a JSON object ({ … }), not \(root.kind)", hint: "a .storekit file starts with '{' and holds \"products\", \"subscriptionGroups\", \"settings\" and \"version\"")
      return nil
    }
    let version = formatVersion(object["version"], path: JSONPath.root.appending("version"))
    let identifier = string(object, "identifier", in: .root)
    let settings = object["settings"].map { self.settings(from: $0, path: JSONPath.root.appending("settings")) } ?? CatalogSettings()

    var products: [Product] = []
    products += productArray(object, "products", allowed: [.consumable, .nonConsumable, .nonRenewingSubscription])
    products += productArray(object, "nonRenewingSubscriptions", allowed: [.nonRenewingSubscription, .consumable, .nonConsumable])
    var groups: [SubscriptionGroup] = []
    // Format 6.x adds bundle and suite groups beside the subscription groups; older files may
    // carry them too (a hand-edited file), and they are read the same way.
    for (key, kind) in [("subscriptionGroups", SubscriptionGroup.Kind.regular), ("subscriptionBundleGroups", .bundle), ("subscriptionSuiteGroups", .suite)] {
      guard let value = object[key] else { continue }
      let path = JSONPath.root.appending(key)
      guard let array = value.arrayValue else {
        report(path, "must be an array of subscription groups, not \(value.kind)", hint: "write \"\(key)\" : [ … ], or [] for none")
        continue
      }
      for (index, element) in array.enumerated() {
        if let (group, subscriptions) = subscriptionGroup(element, path: path.appending(index), kind: kind) {
          groups.append(group)
          products += subscriptions
        }
      }
    }
    checkBundledReferences(products: products)
    // Grown by appending: kept at exactly its size (a 10,000-product catalog holds 1 MB less).
    products = products.withUnsafeBufferPointer { Array($0) }
    return Catalog(formatVersion: version, identifier: identifier, products: products, subscriptionGroups: groups, settings: settings)
  }

  // MARK: - Version

  private mutating func formatVersion(_ value: JSONValue?, path: JSONPath) -> Catalog.FormatVersion {
    let fallback = Catalog.FormatVersion(major: 4, minor: 0)
    guard let value else {
      report(.root, "missing required field 'version'", hint: "add \"version\" : { \"major\" : 4, \"minor\" : 0 } (Xcode writes it in every file)")
      return fallback
    }
    guard let object = value.objectValue else {
      report(path, "must be an object like { \"major\" : 4, \"minor\" : 0 }, not \(value.kind)", hint: "write \"version\" : { \"major\" : 4, \"minor\" : 0 }")
      return fallback
    }
    guard let major = int(object, "major", in: path, required: true) else { return fallback }
    let minor = int(object, "minor", in: path) ?? 0
    let version = Catalog.FormatVersion(major: major, minor: minor)
    let newest = CatalogDecoder.newestKnownVersion
    if version.major < 1 || version.major > newest.major || minor < 0 {
      report(path, "format version \(version) is not supported; this storefront reads formats 1.0 through \(newest.major).x", hint: "re-save the file with an Xcode that writes format \(newest) or older, or set \"major\" : \(newest.major) if the file uses only known keys")
    } else if version > newest {
      // A newer minor version only adds keys (as 5.0 and 6.x did); the ones we know mean the same.
      warn(path, "format version \(version) is newer than this storefront knows (\(newest)); read as \(newest), keys it does not know are ignored", hint: "check the products with 'storefront catalog show'; update storefront to read the new keys")
    }
    return version
  }

  // MARK: - Products

  private mutating func productArray(_ object: [String: JSONValue], _ key: String, allowed: [ProductKind]) -> [Product] {
    guard let value = object[key] else { return [] }
    let path = JSONPath.root.appending(key)
    guard let array = value.arrayValue else {
      report(path, "must be an array of products, not \(value.kind)", hint: "write \"\(key)\" : [ … ], or [] for none")
      return []
    }
    var products: [Product] = []
    products.reserveCapacity(array.count)
    for (index, element) in array.enumerated() {
      let elementPath = path.appending(index)
      guard let fields = productFields(element, path: elementPath, allowed: allowed, container: key) else { continue }
      products.append(Product(id: fields.id, kind: fields.kind, referenceName: fields.referenceName, price: fields.price, familyShareable: fields.familyShareable, internalID: fields.internalID, localizations: fields.localizations))
    }
    return products
  }

  struct ProductFields {
    var object: [String: JSONValue]
    var id: Product.ID
    var kind: ProductKind
    var referenceName: String
    var price: Decimal
    var familyShareable: Bool
    var internalID: String
    var localizations: [Localization]
  }

  /// The fields every product kind shares; nil when a required one is missing or wrong.
  mutating func productFields(_ value: JSONValue, path: JSONPath, allowed: [ProductKind], container: String, typeAliases: [String: ProductKind] = [:]) -> ProductFields? {
    guard let object = value.objectValue else {
      report(path, "must be a product object ({ \"productID\" : …, \"type\" : …, … }), not \(value.kind)", hint: "each element of \"\(container)\" is an object with productID, type, displayPrice and localizations")
      return nil
    }
    let issueCount = issues.count
    let id = string(object, "productID", in: path, required: true, example: "com.example.app.coins100")
    if let id, id.isEmpty {
      report(path.appending("productID"), "product ID is empty", hint: "give the product the identifier your app requests, e.g. \"com.example.app.coins100\"")
    }
    let kind = productKind(object, path: path, allowed: allowed, container: container, typeAliases: typeAliases)
    let price = self.price(object, "displayPrice", in: path, required: true)
    let referenceName = string(object, "referenceName", in: path)
    let familyShareable = bool(object, "familyShareable", in: path) ?? false
    let internalID = string(object, "internalID", in: path) ?? ""
    let localizations = self.localizations(object["localizations"], path: path.appending("localizations"))

    if let id, !id.isEmpty {
      let idPath = path.appending("productID")
      if let first = firstSeen[id] {
        report(idPath, "duplicate product ID '\(id)'", hint: "product IDs must be unique across products, nonRenewingSubscriptions and every subscription group; rename or delete one of them", related: first)
      } else {
        firstSeen[id] = idPath
      }
    }
    guard issues.count == issueCount, let id, let kind, let price else { return nil }
    return ProductFields(object: object, id: Product.ID(id), kind: kind, referenceName: referenceName ?? id, price: price, familyShareable: familyShareable, internalID: internalID, localizations: localizations)
  }

  private mutating func productKind(_ object: [String: JSONValue], path: JSONPath, allowed: [ProductKind], container: String, typeAliases: [String: ProductKind]) -> ProductKind? {
    guard let name = string(object, "type", in: path, required: true, example: allowed[0].catalogName) else { return nil }
    let allowedNames = allowed.map(\.catalogName)
    if let kind = typeAliases[name] { return kind }
    if let kind = ProductKind(catalogName: name), allowed.contains(kind) { return kind }
    if let kind = ProductKind(catalogName: name) {
      let home = kind == .autoRenewableSubscription ? "subscriptionGroups[].subscriptions" : "products or nonRenewingSubscriptions"
      report(path.appending("type"), "type '\(name)' does not belong in \(container)", hint: "move this product to \(home), or use one of: \(allowedNames.joined(separator: ", "))")
      return nil
    }
    if Self.meansAutoRenewable(name) {
      // "AutoRenewableSubscription" is what people call it; the nearest spelling,
      // NonRenewingSubscription, is the opposite kind.
      if allowed.contains(.autoRenewableSubscription) {
        report(path.appending("type"), "unknown product type '\(name)'", hint: "an auto-renewable subscription's type is \"RecurringSubscription\"")
      } else {
        report(path.appending("type"), "unknown product type '\(name)'; auto-renewable subscriptions do not belong in \(container)", hint: "auto-renewable subscriptions belong in a subscription group: move this product to subscriptionGroups[].subscriptions[] with \"type\" : \"RecurringSubscription\" (and a groupNumber and recurringSubscriptionPeriod), or use one of: \(allowedNames.joined(separator: ", "))")
      }
      return nil
    }
    let suggestion = NearMatch.closest(to: name, in: ProductKind.allCases.map(\.catalogName))
    let didYouMean = suggestion.map { "did you mean '\($0)'? " } ?? ""
    report(path.appending("type"), "unknown product type '\(name)'", hint: "\(didYouMean)use one of: \(allowedNames.joined(separator: ", "))")
    return nil
  }

  /// `AutoRenewableSubscription`, `Auto-Renewable Subscription`, `autoRenewable`, …
  static func meansAutoRenewable(_ name: String) -> Bool {
    let letters = String(name.lowercased().filter(\.isLetter))
    return letters.hasPrefix("autorenew")
  }

  // MARK: - Localizations

  mutating func localizations(_ value: JSONValue?, path: JSONPath) -> [Localization] {
    guard let value, !value.isNull else { return [] }
    guard let array = value.arrayValue else {
      report(path, "must be an array of localizations, not \(value.kind)", hint: "write \"localizations\" : [ { \"description\" : …, \"displayName\" : …, \"locale\" : \"en_US\" } ]")
      return []
    }
    var result: [Localization] = []
    result.reserveCapacity(array.count)
    for (index, element) in array.enumerated() {
      let elementPath = path.appending(index)
      guard let object = element.objectValue else {
        report(elementPath, "must be an object with description, displayName and locale, not \(element.kind)", hint: "write { \"description\" : \"…\", \"displayName\" : \"…\", \"locale\" : \"en_US\" }")
        continue
      }
      guard let locale = string(object, "locale", in: elementPath, required: true, example: "en_US") else { continue }
      let displayName = string(object, "displayName", in: elementPath) ?? ""
      let description = string(object, "description", in: elementPath) ?? ""
      result.append(Localization(locale: locale, displayName: displayName, description: description))
    }
    return result
  }
}
