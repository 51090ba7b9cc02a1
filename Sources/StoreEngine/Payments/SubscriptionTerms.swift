import Foundation

/// What a purchase sheet for an auto-renewable subscription must state (Paid Applications Agreement,
/// Schedule 2 §3.8(b)): the regular price and period it renews at, and the offer that applies first.
public struct SubscriptionTerms: Sendable, Equatable {
  /// The offer the purchase starts with: what is free or discounted, and for how long.
  public struct Offer: Sendable, Equatable {
    public var kind: SubscriptionOffer.Kind
    public var paymentMode: SubscriptionOffer.PaymentMode
    /// One offer period; the offer lasts `numberOfPeriods` of them.
    public var period: SubscriptionPeriod
    public var numberOfPeriods: Int
    /// Per period (pay as you go), for the whole offer (pay up front), zero for a free trial.
    public var price: Money

    public init(
      kind: SubscriptionOffer.Kind, paymentMode: SubscriptionOffer.PaymentMode, period: SubscriptionPeriod,
      numberOfPeriods: Int, price: Money
    ) {
      self.kind = kind
      self.paymentMode = paymentMode
      self.period = period
      self.numberOfPeriods = numberOfPeriods
      self.price = price
    }
  }

  /// The price of each regular period, charged after the offer.
  public var regularPrice: Money
  public var regularPeriod: SubscriptionPeriod
  public var offer: Offer?

  public init(regularPrice: Money, regularPeriod: SubscriptionPeriod, offer: Offer? = nil) {
    self.regularPrice = regularPrice
    self.regularPeriod = regularPeriod
    self.offer = offer
  }
}
