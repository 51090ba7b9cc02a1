/// An offer that goes on past the first period: a pay-as-you-go introductory or promotional offer
/// bills each of its periods as its own renewal, at the offer price.
public struct RenewalOffer: Sendable, Equatable, Codable {
  public var kind: SubscriptionOffer.Kind
  /// The catalog id of the offer (``SubscriptionOffer/id``).
  public var offerID: String
  /// Periods still to bill at the offer price.
  public var remainingPeriods: Int

  public init(kind: SubscriptionOffer.Kind, offerID: String, remainingPeriods: Int) {
    self.kind = kind
    self.offerID = offerID
    self.remainingPeriods = remainingPeriods
  }
}
