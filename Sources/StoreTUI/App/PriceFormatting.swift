import Foundation
import StoreEngine

/// Formats a price for display, e.g. `$1.99`, `₩2`, `1,99 €`.
///
/// The single place the TUI formats money, so it can be swapped for the engine's formatter
/// (StoreEngine/Money) when that lands.
public func formatPrice(_ amount: Decimal, currency: String, locale: String) -> String {
  amount.formatted(.currency(code: currency).locale(Locale(identifier: locale)))
}

/// The storefronts the Settings pane cycles through, with their currencies.
public enum StorefrontChoices {
  /// ISO 3166-1 alpha-3 codes, in cycling order.
  public static let codes = ["USA", "KOR", "JPN", "CHN", "GBR", "DEU"]
  /// Locales in cycling order.
  public static let locales = ["en_US", "ko_KR", "ja_JP", "zh_CN"]

  /// The currency the engine charges in `storefront` (kept in step with the engine's table).
  public static func currency(for storefront: String) -> String {
    ["USA": "USD", "KOR": "KRW", "JPN": "JPY", "CHN": "CNY", "GBR": "GBP", "DEU": "EUR"][storefront] ?? "USD"
  }
}
