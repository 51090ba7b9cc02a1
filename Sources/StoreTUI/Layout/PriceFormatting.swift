import Foundation
import StoreEngine

/// Formats a price for display, e.g. `$1.99`, `₩1,200`, `1,99 €`: the TUI's one way to show money.
///
/// Not remembered: drawing goes through a ``PriceMemo`` (ICU formatting is the costliest part of a
/// product row), which calls this for prices it has not seen.
public func formatPrice(_ amount: Decimal, currency: String, locale: String) -> String {
  PriceFormatter.string(for: amount, currencyCode: currency, locale: locale)
}
