import Foundation

/// What a purchase sheet for an auto-renewable subscription must state (Paid Applications Agreement,
/// Schedule 2 §3.8(b)): the regular price and period it renews at, and the offer that applies first.
///
/// Generic over the price: the engine quotes ``Money``; a front end maps it to its formatted text
/// (``map(_:)``) and words the sheet from the same value.
public struct SubscriptionTerms<Price> {
  /// The offer the purchase starts with: what is free or discounted, and for how long.
  public struct Offer {
    public var kind: SubscriptionOffer.Kind
    public var paymentMode: SubscriptionOffer.PaymentMode
    /// One offer period; the offer lasts `numberOfPeriods` of them.
    public var period: SubscriptionPeriod
    public var numberOfPeriods: Int
    /// Per period (pay as you go), for the whole offer (pay up front), zero for a free trial.
    public var price: Price

    public init(
      kind: SubscriptionOffer.Kind, paymentMode: SubscriptionOffer.PaymentMode, period: SubscriptionPeriod,
      numberOfPeriods: Int, price: Price
    ) {
      self.kind = kind
      self.paymentMode = paymentMode
      self.period = period
      self.numberOfPeriods = numberOfPeriods
      self.price = price
    }
  }

  /// A monthly plan's commitment (iOS 26.4): the one-time disclosure Apple's sheet shows, "12
  /// monthly payments" of the regular price, the total committed to.
  public struct CommitmentTerms {
    public var payments: Int
    public var total: Price

    public init(payments: Int, total: Price) {
      self.payments = payments
      self.total = total
    }
  }

  /// The price of each regular period, charged after the offer.
  public var regularPrice: Price
  public var regularPeriod: SubscriptionPeriod
  public var offer: Offer?
  /// Set when the purchase is on the `MONTHLY` plan: `regularPrice` is then each month's payment.
  public var commitment: CommitmentTerms?

  public init(regularPrice: Price, regularPeriod: SubscriptionPeriod, offer: Offer? = nil, commitment: CommitmentTerms? = nil) {
    self.regularPrice = regularPrice
    self.regularPeriod = regularPeriod
    self.offer = offer
    self.commitment = commitment
  }

  /// The same terms with every price transformed (formatted for a storefront, say).
  public func map<Other>(_ transform: (Price) -> Other) -> SubscriptionTerms<Other> {
    SubscriptionTerms<Other>(
      regularPrice: transform(regularPrice), regularPeriod: regularPeriod,
      offer: offer.map {
        .init(kind: $0.kind, paymentMode: $0.paymentMode, period: $0.period, numberOfPeriods: $0.numberOfPeriods, price: transform($0.price))
      },
      commitment: commitment.map { .init(payments: $0.payments, total: transform($0.total)) })
  }
}

extension SubscriptionTerms: Sendable where Price: Sendable {}
extension SubscriptionTerms: Equatable where Price: Equatable {}
extension SubscriptionTerms.Offer: Sendable where Price: Sendable {}
extension SubscriptionTerms.Offer: Equatable where Price: Equatable {}
extension SubscriptionTerms: Codable where Price: Codable {}
extension SubscriptionTerms.Offer: Codable where Price: Codable {}
extension SubscriptionTerms.CommitmentTerms: Sendable where Price: Sendable {}
extension SubscriptionTerms.CommitmentTerms: Equatable where Price: Equatable {}
extension SubscriptionTerms.CommitmentTerms: Codable where Price: Codable {}
