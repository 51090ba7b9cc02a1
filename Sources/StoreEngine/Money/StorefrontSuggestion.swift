/// "Did you mean …?" for a storefront code that is not one, shared by the front ends' wording of
/// ``EngineError/unknownStorefront(_:nearMatches:)`` and their own option checks.
public enum StorefrontSuggestion {
  /// ` Did you mean 'USA' (United States) or 'UZB' (Uzbekistan)?`, or an empty string.
  public static func didYouMean(_ codes: [String]) -> String {
    let named = codes.compactMap { code in Storefront.lookup(code).map { "'\(code)' (\($0.name))" } }
    guard let last = named.last else { return "" }
    let list = named.count == 1 ? last : named.dropLast().joined(separator: ", ") + " or " + last
    return " Did you mean \(list)?"
  }

  /// The same for a code as typed: its near matches, suggested.
  public static func didYouMean(for code: String) -> String {
    didYouMean(Storefront.nearMatches(to: code).map(\.code))
  }
}
