import Foundation

/// An exact amount of a currency: a `Decimal` plus an ISO 4217 code, never a binary float.
public struct Money: Sendable, Hashable, CustomStringConvertible {
  public var amount: Decimal
  /// ISO 4217 code, e.g. `"USD"`, `"KRW"`.
  public var currencyCode: String

  public init(_ amount: Decimal, currencyCode: String) {
    self.amount = amount
    self.currencyCode = currencyCode
  }

  /// The amount in `storefront`'s currency.
  public init(_ amount: Decimal, storefront: Storefront) {
    self.init(amount, currencyCode: storefront.currencyCode)
  }

  /// The amount as a plain decimal string with a `.` separator (`"0.99"`, `"1200"`), for JSON.
  public var decimalString: String { amount.description }

  /// The price as the App Store would show it to a user of `locale`: `$0.99`, `₩1,200`, `0,99 €`.
  public func formatted(locale: String) -> String {
    PriceFormatter.string(for: amount, currencyCode: currencyCode, locale: locale)
  }

  /// `"0.99 USD"`.
  public var description: String { "\(decimalString) \(currencyCode)" }
}
