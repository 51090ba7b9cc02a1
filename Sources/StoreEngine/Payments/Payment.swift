/// A request to buy a product, as an app adds it to the queue (`SKPayment`).
public struct Payment: Sendable, Equatable {
  public var productID: Product.ID
  public var quantity: Int
  /// `SKPayment.applicationUsername`; a UUID here becomes the JWS `appAccountToken`.
  public var applicationUsername: String?
  /// A promotional offer (`adHocOffers` `offerID`) or offer code to apply.
  public var offerID: String?
  /// The signed promotional offer (`SKPayment.paymentDiscount`); a promotional offer needs one.
  public var discount: PaymentDiscount?
  /// Xcode's transaction manager applies a promotional offer without a signature
  /// (`buyProduct(identifier:options:)` with `.promotionalOffer(id:)`); apps never can.
  public var offerSignatureWaived = false
  /// The developer's server's word on the introductory offer (`introductoryOfferEligibility(compactJWS:)`).
  public var introductoryOfferEligibility: SignedRequest?
  /// The billing plan chosen (`Product.PurchaseOption.billingPlanType(_:)`): `MONTHLY` for monthly
  /// payments with a 12-month commitment, `BILLED_UPFRONT` (or nil) for the plan billed once a period.
  public var billingPlanType: String?

  public init(
    productID: Product.ID, quantity: Int = 1, applicationUsername: String? = nil, offerID: String? = nil,
    discount: PaymentDiscount? = nil
  ) {
    self.productID = productID
    self.quantity = quantity
    self.applicationUsername = applicationUsername
    self.offerID = offerID
    self.discount = discount
  }
}
