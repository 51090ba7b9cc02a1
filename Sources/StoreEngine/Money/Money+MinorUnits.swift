import Foundation

/// Whole-unit currencies: the App Store charges ₩1, never ₩0.99.
///
/// A `.storekit` price is a bare number that Xcode relabels with the storefront's currency, so
/// `0.99` in the Korean storefront is shown as `₩1`. The store charges what it shows: every price
/// it quotes, charges, signs or lists is the catalog's number rounded (half up) to the currency's
/// minor units, per unit before a quantity multiplies it (DECISIONS.md §5).
extension Money {
  /// Currencies of the storefront table that have no minor unit, as CLDR (and so Foundation's
  /// currency formatting) writes them; every other one has two. A test checks this against
  /// Foundation for every currency of ``Storefront/all``.
  static let wholeUnitCurrencies: Set<String> = ["CLP", "COP", "IDR", "JPY", "KRW", "PKR", "VND"]

  /// The digits after the decimal separator a price in `currencyCode` has: 0 for KRW and JPY, else 2.
  public static func minorUnits(of currencyCode: String) -> Int {
    wholeUnitCurrencies.contains(currencyCode.uppercased()) ? 0 : 2
  }

  /// `amount` rounded half up to the minor units of `currencyCode`: `0.99` KRW → `1`, `2.5` JPY → `3`.
  public static func rounded(_ amount: Decimal, currencyCode: String) -> Decimal {
    var value = amount
    var result = Decimal()
    NSDecimalRound(&result, &value, minorUnits(of: currencyCode), .plain)
    return result
  }

  /// The price the App Store charges for a catalog price in `storefront`: rounded to its
  /// currency's minor units.
  public init(charging amount: Decimal, in storefront: Storefront) {
    self.init(Self.rounded(amount, currencyCode: storefront.currencyCode), currencyCode: storefront.currencyCode)
  }
}
