import Foundation
internal import StoreEngine

extension Transaction {
  /// Who owns a transaction.
  public struct OwnershipType: RawRepresentable, Equatable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let purchased = OwnershipType(rawValue: "PURCHASED")
    public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")

    /// For the user: who paid.
    public var localizedDescription: String {
      switch self {
      case .purchased: "Purchased"
      case .familyShared: "Family Shared"
      default: rawValue
      }
    }
  }

  /// Why a transaction was refunded or revoked.
  public struct RevocationReason: RawRepresentable, Equatable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let developerIssue = RevocationReason(rawValue: 1)
    public static let other = RevocationReason(rawValue: 0)
    /// The transaction was revoked because the customer switched to a subscription bundle (iOS 27).
    public static var upgradedToBundle: RevocationReason {
      RevocationReason(rawValue: StoreEngine.PaymentTransaction.upgradedToBundleRevocationReason)
    }

    /// For the user: why the purchase was taken back.
    public var localizedDescription: String {
      switch self {
      case .developerIssue: "Refunded because of an issue with the app"
      case .other: "Refunded for another reason"
      case .upgradedToBundle: "Replaced by a subscription bundle"
      default: "Revoked (reason \(rawValue))"
      }
    }
  }

  /// Why the transaction exists.
  public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let purchase = Reason(rawValue: "PURCHASE")
    public static let renewal = Reason(rawValue: "RENEWAL")
  }

  /// The subscription offer a transaction applied.
  public struct Offer: Equatable, Hashable, Sendable {
    public let id: String?
    public let type: OfferType
    public let paymentMode: PaymentMode?
    /// How long the offer lasts in all (the payload's `offerPeriod`: `P2M` for two monthly periods).
    public let period: Product.SubscriptionPeriod?

    init(kind: SubscriptionOffer.Kind, id: String?, mode: SubscriptionOffer.PaymentMode?, period: String?) {
      type = OfferType(rawValue: kind.rawValue)
      self.id = id
      paymentMode = mode.map(PaymentMode.init)
      self.period = period.flatMap(StoreEngine.SubscriptionPeriod.init(iso8601:)).map(Product.SubscriptionPeriod.init)
    }

    init(signedType: Int, id: String?, discountType: String?, period: String?) {
      type = OfferType(rawValue: signedType)
      self.id = id
      paymentMode = discountType.map(PaymentMode.init(rawValue:))
      self.period = period.flatMap(StoreEngine.SubscriptionPeriod.init(iso8601:)).map(Product.SubscriptionPeriod.init)
    }

    /// How the customer pays during an offer.
    public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
      public let rawValue: String
      public init(rawValue: String) { self.rawValue = rawValue }
      public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
      public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
      public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")
      /// A one-time charge (offer codes for consumables and non-consumables).
      public static var oneTime: PaymentMode { PaymentMode(rawValue: "ONE_TIME") }

      init(_ mode: SubscriptionOffer.PaymentMode) { self.init(rawValue: mode.discountType) }
    }
  }

  /// The kind of a subscription offer, with the `offerType` numbers of signed transactions.
  public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let introductory = OfferType(rawValue: 1)
    public static let promotional = OfferType(rawValue: 2)
    public static let code = OfferType(rawValue: 3)
    public static var winBack: OfferType { OfferType(rawValue: 4) }

    /// For the user: the kind of offer.
    public var localizedDescription: String {
      switch self {
      case .introductory: "Introductory Offer"
      case .promotional: "Promotional Offer"
      case .code: "Offer Code"
      case .winBack: "Win-Back Offer"
      default: "Offer (\(rawValue))"
      }
    }
  }
}
