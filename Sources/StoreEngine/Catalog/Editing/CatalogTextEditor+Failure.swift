extension CatalogTextEditor {
  /// Why an edit was refused; nothing is changed.
  public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownProduct(String, known: [String])
    case duplicateProduct(String)
    case invalidPrice(String)
    case noPrice(String)
    /// The product has no localization for the locale (`known`: those it has).
    case noLocalization(product: String, locale: String, known: [String])
    case unknownLocale(String)
    case unknownStorefront(String)
    case unknownType(String)
    case unknownKey(String)
    case notKeyValue(String)
    case invalidValue(key: String, value: String, hint: String)
    /// A subscription-only key on another kind of product.
    case notASubscription(product: String, key: String)
    /// An auto-renewable subscription needs a group and the catalog has none or several.
    case groupNeeded(product: String, groups: [String])
    /// The catalog's text does not have the shape an edit needs (such as `products` not an array).
    case unexpectedShape(JSONPath)

    public var description: String {
      switch self {
      case .unknownProduct(let id, let known):
        return "no product '\(id)' in the catalog" + Self.didYouMean(id, in: known)
      case .duplicateProduct(let id):
        return "product '\(id)' is already in the catalog; product ids are unique across the whole catalog, so choose another"
      case .invalidPrice(let text):
        return "price '\(text)' is not a price: write a number of at least 0 with a point for decimals, such as 0.99"
      case .noPrice(let id):
        return "product '\(id)' has no displayPrice to change"
      case .noLocalization(let id, let locale, let known):
        return "product '\(id)' has no localization '\(locale)'"
          + (known.isEmpty ? "" : "; it has \(known.map { "'\($0)'" }.joined(separator: ", "))")
      case .unknownLocale(let code):
        return "'\(code)' is not a locale: write a language code with an optional region, such as en_US, ko or zh_Hans"
      case .unknownStorefront(let code):
        let near = Storefront.nearMatches(to: code).map(\.code)
        return "'\(code)' is not an App Store storefront: write an ISO 3166-1 alpha-3 code such as USA, KOR or DEU"
          + (near.isEmpty ? "" : "; did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?")
      case .unknownType(let type):
        let types = CatalogTextEditor.typeNames.map(\.name)
        return "unknown product type '\(type)'; use one of \(types.joined(separator: ", "))" + Self.didYouMean(type, in: types)
      case .unknownKey(let key):
        return "unknown key '\(key)'; the keys are \(CatalogEdit.keyList)" + Self.didYouMean(key, in: CatalogEdit.keys.map { $0.key.components(separatedBy: "[").first ?? $0.key })
      case .notKeyValue(let text):
        return "'\(text)' is not key=value; write, for example, price=1.99"
      case .invalidValue(let key, let value, let hint):
        return "\(key)='\(value)' is not valid: \(hint)"
      case .notASubscription(let id, let key):
        return "\(key) is for auto-renewable subscriptions, and '\(id)' is not one"
      case .groupNeeded(let id, let groups):
        return "auto-renewable subscription '\(id)' needs a group: add group=NAME"
          + (groups.isEmpty ? " (a new name makes the group)" : "; the catalog has \(groups.map { "'\($0)'" }.joined(separator: ", "))")
      case .unexpectedShape(let path):
        return "\(path) is not what Xcode writes there, so the editor leaves the file alone; run storefront catalog check on it"
      }
    }

    private static func didYouMean(_ input: String, in known: [String]) -> String {
      let near = NearMatch.all(near: input, in: known)
      return near.isEmpty ? "" : "; did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?"
    }
  }
}
