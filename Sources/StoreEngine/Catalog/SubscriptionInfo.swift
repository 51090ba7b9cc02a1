import Foundation

/// The subscription side of an auto-renewable product.
public struct SubscriptionInfo: Sendable, Equatable {
  public var groupID: String
  /// Level within the group: 1 is the highest service level (Apple's sample: Premium = 1).
  public var level: Int
  public var period: SubscriptionPeriod
  public var introductoryOffers: [SubscriptionOffer]
  public var promotionalOffers: [SubscriptionOffer]
  public var codeOffers: [SubscriptionOffer]
  public var winBackOffers: [SubscriptionOffer]
  public var billingPlans: [BillingPlan]
  /// For a bundle or suite subscription (format 6.x): the subscriptions it includes. Empty otherwise.
  public var bundledSubscriptions: [BundledSubscription]

  public init(
    groupID: String, level: Int, period: SubscriptionPeriod,
    introductoryOffers: [SubscriptionOffer] = [], promotionalOffers: [SubscriptionOffer] = [],
    codeOffers: [SubscriptionOffer] = [], winBackOffers: [SubscriptionOffer] = [],
    billingPlans: [BillingPlan] = [], bundledSubscriptions: [BundledSubscription] = []
  ) {
    self.groupID = groupID
    self.level = level
    self.period = period
    self.introductoryOffers = introductoryOffers
    self.promotionalOffers = promotionalOffers
    self.codeOffers = codeOffers
    self.winBackOffers = winBackOffers
    self.billingPlans = billingPlans
    self.bundledSubscriptions = bundledSubscriptions
  }

  /// The introductory offer StoreKit would apply: the first one.
  public var introductoryOffer: SubscriptionOffer? { introductoryOffers.first }

  /// The billing plan types the catalog gives this subscription (`BILLED_UPFRONT`, `MONTHLY`), in
  /// file order: its enabled `billingPlans`, then any other type its offers name. Empty for a
  /// catalog without billing plans.
  public var billingPlanTypes: [String] {
    let offers = introductoryOffers + promotionalOffers + codeOffers + winBackOffers
    var types: [String] = []
    for type in billingPlans.filter(\.isEnabled).map(\.type) + offers.compactMap(\.billingPlanType) where !types.contains(type) {
      types.append(type)
    }
    return types
  }

  /// The plan a purchase without a chosen plan is billed on: `BILLED_UPFRONT` when the catalog has
  /// billing plans (every subscription has StoreKit's default `.upFront` plan; `MONTHLY` must be
  /// chosen), nil when it has none.
  public var defaultBillingPlanType: String? {
    billingPlanTypes.isEmpty ? nil : BillingPlan.upFront
  }
}

/// A subscription group: products that are levels of one service; one active subscription per group.
public struct SubscriptionGroup: Sendable, Equatable {
  /// Which array of the file the group comes from.
  public enum Kind: String, Sendable, Equatable {
    /// `subscriptionGroups`: levels of one service.
    case regular
    /// `subscriptionBundleGroups` (6.x): each subscription includes others that are also sold alone.
    case bundle
    /// `subscriptionSuiteGroups` (6.x): each subscription includes others sold only in the suite.
    case suite
  }

  public var id: String
  public var name: String
  public var localizations: [Localization]
  /// The ids of the group's subscriptions, in catalog order.
  public var productIDs: [Product.ID]
  public var kind: Kind

  public init(id: String, name: String, localizations: [Localization] = [], productIDs: [Product.ID] = [], kind: Kind = .regular) {
    self.id = id
    self.name = name
    self.localizations = localizations
    self.productIDs = productIDs
    self.kind = kind
  }
}

/// An offer on a subscription: introductory, promotional (`adHocOffers`), offer code or win-back.
public struct SubscriptionOffer: Sendable, Equatable {
  public enum Kind: Int, Sendable, Equatable, Codable {
    // Raw values are the `offerType` numbers of signed transactions.
    case introductory = 1
    case promotional = 2
    case code = 3
    case winBack = 4
  }

  public enum PaymentMode: String, Sendable, Equatable, Codable, CaseIterable {
    case freeTrial = "free"
    case payAsYouGo
    case payUpFront
    /// B89: an offer code for a consumable, non-consumable or non-renewing subscription, paid once
    /// (iOS 18.2's `Transaction.Offer.PaymentMode.oneTime`); the store sets it, no catalog offer has it.
    case oneTime

    /// The modes a catalog offer may have.
    public static let catalogModes: [PaymentMode] = [.freeTrial, .payAsYouGo, .payUpFront]

    /// `offerDiscountType` in signed transactions.
    public var discountType: String {
      switch self {
      case .freeTrial: "FREE_TRIAL"
      case .payAsYouGo: "PAY_AS_YOU_GO"
      case .payUpFront: "PAY_UP_FRONT"
      case .oneTime: "ONE_TIME"
      }
    }
  }

  public var kind: Kind
  /// `offerID` for promotional offers, `internalID` otherwise (reference name when both are missing).
  public var id: String
  public var referenceName: String
  public var paymentMode: PaymentMode
  public var period: SubscriptionPeriod
  public var numberOfPeriods: Int
  /// Price per period (pay as you go) or for the whole offer (pay up front); zero for free trials.
  public var price: Decimal
  /// Offer-code eligibility (`new`, `existing`, `expired`); empty for other kinds.
  public var eligibility: [String]
  public var isStackable: Bool
  public var billingPlanType: String?

  public init(
    kind: Kind, id: String, referenceName: String = "", paymentMode: PaymentMode,
    period: SubscriptionPeriod, numberOfPeriods: Int = 1, price: Decimal = 0,
    eligibility: [String] = [], isStackable: Bool = false, billingPlanType: String? = nil
  ) {
    self.kind = kind
    self.id = id
    self.referenceName = referenceName
    self.paymentMode = paymentMode
    self.period = period
    self.numberOfPeriods = numberOfPeriods
    self.price = price
    self.eligibility = eligibility
    self.isStackable = isStackable
    self.billingPlanType = billingPlanType
  }
}

/// A billing plan of a one-year subscription (format 5.0 and later): billed up front, or monthly
/// with a 12-month commitment.
public struct BillingPlan: Sendable, Equatable {
  /// `BILLED_UPFRONT` or `MONTHLY`, as the file and Apple's `billingPlanType` write it.
  public var type: String
  /// What each billing period charges (the month's price on `MONTHLY`).
  public var price: Decimal
  /// What the whole commitment costs (twelve months' prices on `MONTHLY`).
  public var commitmentPrice: Decimal
  public var isEnabled: Bool

  /// The plan type billed once per period, StoreKit's `.upFront`.
  public static let upFront = "BILLED_UPFRONT"
  /// Monthly payments for a 12-month commitment, StoreKit's `.monthly`.
  public static let monthly = "MONTHLY"

  public init(type: String, price: Decimal, commitmentPrice: Decimal, isEnabled: Bool) {
    self.type = type
    self.price = price
    self.commitmentPrice = commitmentPrice
    self.isEnabled = isEnabled
  }
}
