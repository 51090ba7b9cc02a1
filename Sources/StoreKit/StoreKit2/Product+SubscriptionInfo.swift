import Foundation
internal import StoreEngine
internal import StoreScenario

extension Product {
  /// The subscription side of an auto-renewable product.
  public struct SubscriptionInfo: Equatable, Hashable, Sendable {
    public let subscriptionGroupID: String
    public let subscriptionPeriod: SubscriptionPeriod
    public let introductoryOffer: SubscriptionOffer?
    public let promotionalOffers: [SubscriptionOffer]
    public let winBackOffers: [SubscriptionOffer]
    /// 1 is the highest level of service in the group.
    public let groupLevel: Int
    /// The group's name for the session's locale (the catalog's group localization, else its name).
    public let groupDisplayName: String
    /// One entry per billing plan the subscription is sold on (iOS 26.4): up front, and monthly
    /// with a 12-month commitment when the catalog enables it.
    public let pricingTerms: [PricingTerms]
    /// The subscriptions a subscription bundle or suite includes (iOS 27); empty for other products.
    public let bundledSubscriptions: [BundledSubscription]

    init(
      _ info: StoreEngine.SubscriptionInfo, price: Decimal = 0, currency: String, locale: String, group: StoreEngine.SubscriptionGroup?,
      catalog: StoreEngine.Catalog? = nil
    ) {
      pricingTerms = PricingTerms.all(of: info, price: price, currency: currency, locale: locale)
      bundledSubscriptions = info.bundledSubscriptions.map {
        BundledSubscription($0, currency: currency, locale: locale, catalog: catalog, suite: group?.kind == .suite ? group : nil)
      }
      subscriptionGroupID = info.groupID
      subscriptionPeriod = SubscriptionPeriod(info.period)
      introductoryOffer = info.introductoryOffer.map { SubscriptionOffer($0, currency: currency, locale: locale) }
      promotionalOffers = info.promotionalOffers.map { SubscriptionOffer($0, currency: currency, locale: locale) }
      winBackOffers = info.winBackOffers.map { SubscriptionOffer($0, currency: currency, locale: locale) }
      groupLevel = info.level
      let localized = group.flatMap { Localization.best(in: $0.localizations, for: locale)?.displayName } ?? ""
      groupDisplayName = localized.isEmpty ? (group?.name ?? "") : localized
    }

    /// Whether the account may still use an introductory offer in this group.
    public var isEligibleForIntroOffer: Bool {
      get async { await Self.isEligibleForIntroOffer(for: subscriptionGroupID) }
    }

    /// Whether the account may still use an introductory offer in `groupID` (once per group).
    public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
      (try? StoreKitEnvironment.shared.read { store in
        store.queue.isEligibleForIntroOffer(group: groupID, account: store.queue.currentAccount ?? store.configuration.account)
      }) ?? false
    }

    /// The statuses of the account's subscriptions in this group.
    public var status: [Status] {
      get async throws { try await Self.status(for: subscriptionGroupID) }
    }

    /// The statuses of the account's subscriptions in `groupID`: each chain's renewal state, its
    /// latest transaction and its renewal info as the store last signed it.
    ///
    /// - Throws: the ``StoreKitError`` a simulated `subscriptionStatus` error sets.
    public static func status(for groupID: String) async throws -> [Status] {
      try StoreKitEnvironment.shared.subscriptionStatuses(group: groupID)
    }

    /// The status of the subscription chain `transactionID` belongs to (any transaction of it), or
    /// nil when it is no auto-renewable transaction of the account.
    ///
    /// - Throws: the ``StoreKitError`` a simulated `subscriptionStatus` error sets.
    public static func status(transactionID: UInt64) async throws -> SubscriptionStatus? {
      try StoreKitEnvironment.shared.subscriptionStatus(transactionID: transactionID)
    }
  }

  /// An introductory, promotional or win-back offer.
  public struct SubscriptionOffer: Equatable, Hashable, Sendable {
    /// The promotional offer's id (nil for an introductory offer).
    public let id: String?
    public let type: OfferType
    public let price: Decimal
    public let displayPrice: String
    public let period: SubscriptionPeriod
    public let periodCount: Int
    public let paymentMode: PaymentMode

    init(_ offer: StoreEngine.SubscriptionOffer, currency: String, locale: String) {
      type = OfferType(offer.kind)
      id = offer.kind == .introductory ? nil : offer.id
      price = Money.rounded(offer.price, currencyCode: currency)
      displayPrice = PriceFormatter.string(for: offer.price, currencyCode: currency, locale: locale)
      period = SubscriptionPeriod(offer.period)
      periodCount = offer.numberOfPeriods
      paymentMode =
        switch offer.paymentMode {
        case .freeTrial: .freeTrial
        case .payAsYouGo: .payAsYouGo
        // A catalog offer is never `oneTime` (offer codes of one-time products only).
        case .payUpFront, .oneTime: .payUpFront
        }
    }

    /// The kind of offer, with Apple's string raw values.
    public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
      public let rawValue: String
      public init(rawValue: String) { self.rawValue = rawValue }
      public static let introductory = OfferType(rawValue: "introductory")
      public static let promotional = OfferType(rawValue: "promotional")
      public static let winBack = OfferType(rawValue: "winBack")

      init(_ kind: StoreEngine.SubscriptionOffer.Kind) {
        switch kind {
        case .introductory: self = .introductory
        case .winBack: self = .winBack
        default: self = .promotional
        }
      }

      /// For the user: the kind of offer.
      public var localizedDescription: String {
        switch self {
        case .introductory: "Introductory Offer"
        case .promotional: "Promotional Offer"
        case .winBack: "Win-Back Offer"
        default: rawValue
        }
      }
    }

    /// How the customer pays during the offer.
    public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
      public let rawValue: String
      public init(rawValue: String) { self.rawValue = rawValue }
      public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
      public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
      public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")

      /// For the user: how the offer is paid.
      public var localizedDescription: String {
        switch self {
        case .freeTrial: "Free Trial"
        case .payAsYouGo: "Pay As You Go"
        case .payUpFront: "Pay Up Front"
        default: rawValue
        }
      }
    }
  }
}

/// Apple's top-level names for the subscription types.
public typealias SubscriptionInfo = Product.SubscriptionInfo
public typealias SubscriptionPeriod = Product.SubscriptionPeriod
public typealias SubscriptionRenewalInfo = Product.SubscriptionInfo.RenewalInfo
public typealias SubscriptionRenewalState = Product.SubscriptionInfo.RenewalState
public typealias SubscriptionStatus = Product.SubscriptionInfo.Status
