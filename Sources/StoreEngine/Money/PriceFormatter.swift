import Foundation

/// Formats prices with the CLDR rules of a locale, through Foundation's currency format style.
///
/// The currency decides the fraction digits (none for KRW and JPY, two for CNY, USD and EUR); the
/// locale decides symbol placement, separators and spacing. Output is the CLDR text, so some
/// locales use no-break spaces: `0,99\u{00A0}€` for `fr_FR`/`de_DE`.
///
/// ```swift
/// PriceFormatter.string(for: 1200, currencyCode: "KRW", locale: "ko_KR")  // "₩1,200"
/// PriceFormatter.string(for: 6, currencyCode: "CNY", locale: "zh_Hans")   // "¥6.00"
/// ```
public enum PriceFormatter {
  /// `amount` in `currencyCode`, written for `locale` (a POSIX or BCP 47 identifier such as
  /// `ko_KR`, `zh_Hans`, `de-DE`).
  public static func string(for amount: Decimal, currencyCode: String, locale: String) -> String {
    let style = Decimal.FormatStyle.Currency(code: currencyCode, locale: Locale(identifier: locale))
    // Rounded as the store charges (half up), not as the formatter would (half even): ₩2.5 shows ₩3.
    return Money.rounded(amount, currencyCode: currencyCode).formatted(style)
  }
}
