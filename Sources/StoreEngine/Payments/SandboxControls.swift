import Foundation

/// The sandbox switches a tester flips at run time, seeded from the catalog's `settings`.
public struct SandboxControls: Sendable, Equatable {
  /// Purchases become `deferred` until approved or declined (Ask to Buy).
  public var askToBuy = false
  /// Purchases fail and wait for the issue to be resolved, then succeed as a new transaction.
  public var interruptedPurchases = false
  /// `SKPaymentQueue.canMakePayments()`; when off, payments fail with `paymentNotAllowed`.
  public var canMakePayments = true
  /// Show the purchase sheet and ask for confirmation; off = `_disableDialogs`.
  public var dialogsEnabled = true
  /// Renewals fail with a billing issue (`_renewalBillingIssuesEnabled`).
  public var billingRetry = false
  /// Keep entitlement during billing retry for the grace window (`_billingGracePeriodEnabled`).
  public var gracePeriod = false
  /// Simulated latency of a products request, in virtual time.
  public var productsLatency: TimeInterval = 0
  /// A simulated error per StoreKit API.
  public var failures: [StoreAPI: SimulatedFailure] = [:]
  /// ISO 3166-1 alpha-3 storefront.
  public var storefront = "USA"
  /// POSIX locale for names and prices.
  public var locale = "en_US"
  /// `SKTestTimeRate` raw value.
  public var timeRate = 0
  /// What `AppStore.ageRatingCode` answers (iOS 26.2): the app's current age rating code, nil when
  /// unavailable. Apple's codes: 100 is 4+, 200 9+, 300 12+, 600 17+, 618 18+ (MarketplaceKit's table).
  public var ageRatingCode: Int? = 100
  /// The real store's glitches switched on (absent: off); Storefront's own (DECISIONS §46).
  public var glitches: [StoreGlitch: GlitchSetting] = [:]

  public init() {}

  /// The controls a catalog's `settings` block asks for.
  public init(settings: CatalogSettings) {
    askToBuy = settings.askToBuyEnabled
    dialogsEnabled = !settings.disableDialogs
    billingRetry = settings.renewalBillingIssuesEnabled
    gracePeriod = settings.billingGracePeriodEnabled
    storefront = settings.storefront
    locale = settings.locale
    timeRate = settings.timeRate
    if settings.failTransactionsEnabled { failures[.purchase] = SimulatedFailure(error: .unknown) }
    for entry in settings.storeKitErrors where entry.enabled {
      if let api = StoreAPI(catalogName: entry.name) {
        failures[api] = SimulatedFailure(error: .unknown)
      }
    }
  }
}

/// An error to inject into one API, optionally only some of the time (seeded).
public struct SimulatedFailure: Sendable, Equatable, Codable {
  public var error: StoreKitError
  /// Probability in 0...1 that a call fails; 1 = always.
  public var chance: Double

  public init(error: StoreKitError, chance: Double = 1) {
    self.error = error
    self.chance = chance
  }
}

/// The nine StoreKit APIs Xcode can make fail (`_storeKitErrors` names), by scenario name.
public enum StoreAPI: String, Sendable, CaseIterable, Hashable {
  case loadProducts = "load-products"
  case purchase
  case verification
  case appStoreSync = "restore"
  case subscriptionStatus = "subscription-status"
  case appTransaction = "app-transaction"
  case manageSubscriptions = "manage-subscriptions"
  case refundRequest = "refund"
  case offerCodeRedeem = "offer-code"

  /// The name in a `.storekit` file's `_storeKitErrors`.
  public var catalogName: String {
    switch self {
    case .loadProducts: "Load Products"
    case .purchase: "Purchase"
    case .verification: "Verification"
    case .appStoreSync: "App Store Sync"
    case .subscriptionStatus: "Subscription Status"
    case .appTransaction: "App Transaction"
    case .manageSubscriptions: "Manage Subscriptions Sheet"
    case .refundRequest: "Refund Request Sheet"
    case .offerCodeRedeem: "Offer Code Redeem Sheet"
    }
  }

  public init?(catalogName: String) {
    guard let api = Self.allCases.first(where: { $0.catalogName == catalogName }) else { return nil }
    self = api
  }
}
