import Foundation
import StoreEngine

/// Formats a price for display, e.g. `$1.99`, `₩1,200`, `1,99 €`: the TUI's one way to show money.
///
/// Results are remembered (a catalog has few distinct prices), because ICU formatting is the
/// costliest part of drawing a product row.
public func formatPrice(_ amount: Decimal, currency: String, locale: String) -> String {
  let key = PriceCache.Key(amount: amount, currency: currency, locale: locale)
  if let known = PriceCache.shared.withLock({ $0[key] }) { return known }
  let text = PriceFormatter.string(for: amount, currencyCode: currency, locale: locale)
  PriceCache.shared.withLock { cache in
    if cache.count >= PriceCache.capacity { cache.removeAll(keepingCapacity: true) }
    cache[key] = text
  }
  return text
}

/// Formatted prices, bounded so a catalog with many distinct prices cannot grow it without end.
enum PriceCache {
  struct Key: Hashable {
    var amount: Decimal
    var currency: String
    var locale: String
  }

  static let capacity = 4096
  static let shared = Locked<[Key: String]>([:])
}

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
