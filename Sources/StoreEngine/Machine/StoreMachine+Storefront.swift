extension StoreMachine {
  /// The canonical code of the storefront `code` names (`usa` → `USA`). Only the App Store's
  /// storefronts exist (B63): anything else is refused, so no transaction is ever signed with a
  /// storefront Apple does not have.
  static func storefrontCode(_ code: String) throws(EngineError) -> String {
    guard let storefront = Storefront.lookup(code) else {
      throw .unknownStorefront(code, nearMatches: Storefront.nearMatches(to: code).map(\.code))
    }
    return storefront.code
  }
}
