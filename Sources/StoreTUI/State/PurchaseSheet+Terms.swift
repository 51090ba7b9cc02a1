import StoreEngine

extension PurchaseSheet {
  /// A subscription's terms with prices formatted for the storefront: the engine's
  /// ``SubscriptionTerms`` mapped to text, as the sheet words them.
  public typealias Terms = SubscriptionTerms<String>
}

extension SubscriptionTerms<String> {
  /// Whether confirming starts a free trial.
  public var isFreeTrial: Bool { offer?.paymentMode == .freeTrial }

  /// The sheet's title.
  public var title: String { isFreeTrial ? "Start Your Free Trial" : "Subscribe" }

  /// The question: "Start your free trial of Premium Monthly?", "Subscribe to Premium Monthly?".
  public func question(productName: String) -> String {
    isFreeTrial ? "Start your free trial of \(productName)?" : "Subscribe to \(productName)?"
  }

  /// What is free or discounted for how long and the price after it: "1 week free, then
  /// $4.99/month."; "$4.99/month." without an offer.
  public var summary: String {
    let regular = Self.rate(regularPrice, per: regularPeriod)
    guard let offer else { return "\(regular)." }
    let length = SubscriptionPeriod(value: offer.period.value * max(1, offer.numberOfPeriods), unit: offer.period.unit).readable
    let discount =
    switch offer.paymentMode {
    case .freeTrial: "\(length) free"
    case .payAsYouGo: "\(Self.rate(offer.price, per: offer.period)) for \(length)"
    case .payUpFront, .oneTime: "\(offer.price) for \(length)"
    }
    return "\(Self.label(offer.kind))\(discount), then \(regular)."
  }

  /// That it renews until cancelled, which every subscription sheet states.
  public static let renewal = "Renews automatically until cancelled."

  /// "$4.99/month", "$9.99 every 3 months".
  static func rate(_ price: String, per period: SubscriptionPeriod) -> String {
    guard period.value == 1 else { return "\(price) every \(period.readable)" }
    return "\(price)/\(period.readable.dropFirst(2))"
  }

  private static func label(_ kind: SubscriptionOffer.Kind) -> String {
    switch kind {
    case .introductory: ""
    case .promotional: "Promotional offer: "
    case .winBack: "Win-back offer: "
    case .code: "Offer code: "
    }
  }
}
