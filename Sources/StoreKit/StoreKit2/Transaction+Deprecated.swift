import Foundation

/// The accessors Apple deprecated but still declares, so code written for iOS 15 and 16 compiles
/// (with Apple's warnings). Each reads the same signed field as its replacement.
extension Transaction {
  @available(*, deprecated, renamed: "offer.type", message: "Use the offer property instead")
  public var offerType: Transaction.OfferType? { offer?.type }

  @available(*, deprecated, renamed: "offer.id", message: "Use the offer property instead")
  public var offerID: String? { offer?.id }

  @available(*, deprecated, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
  public var offerPaymentModeStringRepresentation: String? { offer?.paymentMode?.rawValue }

  @available(*, deprecated, message: "Use the offer property instead")
  public var offerPeriodStringRepresentation: String? { offer == nil ? nil : offerPeriodText }

  @available(*, deprecated, message: "Use the environment property instead")
  public var environmentStringRepresentation: String { environment.rawValue }

  @available(*, deprecated, message: "Use the reason property instead")
  public var reasonStringRepresentation: String { reason.rawValue }

  @available(*, deprecated, message: "Use the storefront property instead")
  public var storefrontCountryCode: String { storefront.countryCode }

  @available(*, deprecated, renamed: "currency.identifier", message: "Use the currency property instead")
  public var currencyCode: String? { currency?.identifier }
}
