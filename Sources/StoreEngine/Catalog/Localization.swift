/// A product's (or group's) name and description in one locale.
public struct Localization: Sendable, Equatable, Codable {
  /// POSIX-style locale code as in the catalog: `en_US`, `ko`, `zh_Hans`.
  public var locale: String
  public var displayName: String
  public var description: String

  public init(locale: String, displayName: String, description: String = "") {
    self.locale = locale
    self.displayName = displayName
    self.description = description
  }

  /// Picks the best localization for `locale`: exact, then same language, then `en_US`, `en`, first.
  ///
  /// Matching ignores case and treats `-` like `_`, so `ko-KR` finds `ko_KR` and `zh_CN` finds `zh_Hans`
  /// through the language fallback.
  public static func best(in localizations: [Localization], for locale: String) -> Localization? {
    // The common case, an exact match, needs no normalizing.
    if let exact = localizations.first(where: { $0.locale == locale }) { return exact }
    let wanted = normalize(locale)
    let language = wanted.split(separator: "_").first.map(String.init) ?? wanted
    let codes = localizations.map { normalize($0.locale) }
    let candidates: [(String) -> Bool] = [
      { $0 == wanted },
      { $0 == language },
      { $0.split(separator: "_").first.map(String.init) == language },
      { $0 == "en_us" },
      { $0.hasPrefix("en") },
    ]
    for matches in candidates {
      if let index = codes.firstIndex(where: matches) { return localizations[index] }
    }
    return localizations.first
  }

  private static func normalize(_ code: String) -> String {
    code.lowercased().replacingOccurrences(of: "-", with: "_")
  }
}
