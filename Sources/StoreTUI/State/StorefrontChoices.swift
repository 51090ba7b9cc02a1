import StoreEngine

/// The storefronts the Settings pane cycles through, with their currencies.
public enum StorefrontChoices {
  /// ISO 3166-1 alpha-3 codes, in cycling order.
  public static let codes = ["USA", "KOR", "JPN", "CHN", "GBR", "DEU"]
  /// Locales in cycling order.
  public static let locales = ["en_US", "ko_KR", "ja_JP", "zh_CN"]

  /// The currency the engine charges in `storefront`.
  public static func currency(for storefront: String) -> String {
    Storefront.lookup(storefront)?.currencyCode ?? "USD"
  }
}
