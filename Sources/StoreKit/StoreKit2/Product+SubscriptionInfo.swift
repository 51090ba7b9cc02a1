import Foundation
internal import StoreEngine
internal import StoreScenario

extension Product {
  /// The subscription side of an auto-renewable product.
  public struct SubscriptionInfo: Hashable, Sendable {
    public let subscriptionGroupID: String
    public let subscriptionPeriod: SubscriptionPeriod
    public let introductoryOffer: SubscriptionOffer?
    public let promotionalOffers: [SubscriptionOffer]
    public let winBackOffers: [SubscriptionOffer]
    /// 1 is the highest level of service in the group.
    public let groupLevel: Int

    init(_ info: StoreEngine.SubscriptionInfo, currency: String, locale: String) {
      subscriptionGroupID = info.groupID
      subscriptionPeriod = SubscriptionPeriod(info.period)
      introductoryOffer = info.introductoryOffer.map { SubscriptionOffer($0, currency: currency, locale: locale) }
      promotionalOffers = info.promotionalOffers.map { SubscriptionOffer($0, currency: currency, locale: locale) }
      winBackOffers = info.winBackOffers.map { SubscriptionOffer($0, currency: currency, locale: locale) }
      groupLevel = info.level
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
      let environment = StoreKitEnvironment.shared
      return try environment.subscriptionStatuses(group: groupID)
    }
  }

  /// A subscription period: a number of units.
  public struct SubscriptionPeriod: Hashable, Sendable {
    public enum Unit: Int, Hashable, Sendable, CaseIterable {
      case day
      case week
      case month
      case year
    }

    public let unit: Unit
    public let value: Int

    init(_ period: StoreEngine.SubscriptionPeriod) {
      value = period.value
      unit =
        switch period.unit {
        case .day: .day
        case .week: .week
        case .month: .month
        case .year: .year
        }
    }
  }

  /// An introductory, promotional or win-back offer.
  public struct SubscriptionOffer: Hashable, Sendable {
    /// The promotional offer's id (nil for an introductory offer).
    public let id: String?
    public let type: OfferType
    public let price: Decimal
    public let displayPrice: String
    public let period: SubscriptionPeriod
    public let periodCount: Int
    public let paymentMode: PaymentMode

    init(_ offer: StoreEngine.SubscriptionOffer, currency: String, locale: String) {
      type = OfferType(rawValue: offer.kind.rawValue)
      id = offer.kind == .introductory ? nil : offer.id
      price = Money.rounded(offer.price, currencyCode: currency)
      displayPrice = PriceFormatter.string(for: offer.price, currencyCode: currency, locale: locale)
      period = SubscriptionPeriod(offer.period)
      periodCount = offer.numberOfPeriods
      paymentMode =
        switch offer.paymentMode {
        case .freeTrial: .freeTrial
        case .payAsYouGo: .payAsYouGo
        case .payUpFront: .payUpFront
        }
    }

    public struct OfferType: RawRepresentable, Hashable, Sendable {
      public let rawValue: Int
      public init(rawValue: Int) { self.rawValue = rawValue }
      public static let introductory = OfferType(rawValue: 1)
      public static let promotional = OfferType(rawValue: 2)
      public static let winBack = OfferType(rawValue: 4)
    }

    public struct PaymentMode: RawRepresentable, Hashable, Sendable {
      public let rawValue: String
      public init(rawValue: String) { self.rawValue = rawValue }
      public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
      public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
      public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")
    }
  }
}

extension Product.SubscriptionInfo {
  /// One subscription chain's status.
  public struct Status: Hashable, Sendable {
    public let state: RenewalState
    public let transaction: VerificationResult<Transaction>
    public let renewalInfo: VerificationResult<RenewalInfo>
  }

  /// The renewal state of a subscription, with Apple's raw values.
  public struct RenewalState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let subscribed = RenewalState(rawValue: 1)
    public static let expired = RenewalState(rawValue: 2)
    public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
    public static let inGracePeriod = RenewalState(rawValue: 4)
    public static let revoked = RenewalState(rawValue: 5)

    init(_ status: SubscriptionStatus) {
      switch status {
      case .subscribed: self = .subscribed
      case .expired: self = .expired
      case .inBillingRetry: self = .inBillingRetryPeriod
      case .inGracePeriod: self = .inGracePeriod
      case .revoked: self = .revoked
      }
    }

    public var description: String {
      switch self {
      case .subscribed: "subscribed"
      case .expired: "expired"
      case .inBillingRetryPeriod: "inBillingRetryPeriod"
      case .inGracePeriod: "inGracePeriod"
      case .revoked: "revoked"
      default: "RenewalState(\(rawValue))"
      }
    }
  }

  /// What the next renewal of a subscription will do.
  public struct RenewalInfo: Hashable, Sendable {
    public let originalTransactionID: UInt64
    /// The product of the current period.
    public let currentProductID: String
    public let willAutoRenew: Bool
    /// The product the next renewal bills (differs after a downgrade).
    public let autoRenewPreference: String?
    public let expirationReason: ExpirationReason?
    public let isInBillingRetry: Bool
    public let gracePeriodExpirationDate: Date?
    public let priceIncreaseStatus: PriceIncreaseStatus
    public let renewalDate: Date?
    public let environment: AppStore.Environment
    public let jsonRepresentation: Data
    let jws: String

    init(_ record: SubscriptionRecord) {
      originalTransactionID = record.originalID.rawValue
      currentProductID = record.productID.rawValue
      willAutoRenew = record.autoRenew
      autoRenewPreference = record.renewalProductID.rawValue
      expirationReason = record.expirationIntent.map { ExpirationReason(rawValue: $0.rawValue) }
      isInBillingRetry = record.status == .inBillingRetry || record.status == .inGracePeriod
      gracePeriodExpirationDate = record.gracePeriodExpiresDate
      priceIncreaseStatus =
        switch record.priceIncreaseStatus {
        case .some(.consented): .agreed
        case .some(.notResponded): .pending
        case nil: record.priceIncreasePending ? .pending : .noIncreasePending
        }
      renewalDate = record.expiresDate
      environment = .sandbox
      jws = record.signedRenewalInfo ?? ""
      jsonRepresentation = Transaction.payload(of: jws) ?? Data()
    }

    public struct ExpirationReason: RawRepresentable, Hashable, Sendable {
      public let rawValue: Int
      public init(rawValue: Int) { self.rawValue = rawValue }
      public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
      public static let billingError = ExpirationReason(rawValue: 2)
      public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
      public static let productUnavailable = ExpirationReason(rawValue: 4)
      public static let unknown = ExpirationReason(rawValue: 5)
    }

    public enum PriceIncreaseStatus: Hashable, Sendable {
      case noIncreasePending
      case pending
      case agreed
    }
  }
}

extension StoreKitEnvironment {
  func subscriptionStatuses(group: String) throws -> [Product.SubscriptionInfo.Status] {
    let failure: SimulatedFailure?
    do { failure = try read { $0.queue.controls.failures[.subscriptionStatus] } } catch { throw StoreKitError.unknown }
    if let failure { throw Self.storeKit2Error(failure.error) }
    do {
      return try read { store in
        let entries = StoreKit2Queries.statuses(group: group, history: try store.queue.history(), subscriptions: store.queue.subscriptions())
        return entries.compactMap { entry in
          guard let transaction = entry.transaction else { return nil }
          let info = Product.SubscriptionInfo.RenewalInfo(entry.record)
          let verifiedInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>
          if info.jws.isEmpty {
            verifiedInfo = .unverified(info, .missingRequiredProperties)
          } else if (try? store.verifier().verify(info.jws)) != nil {
            verifiedInfo = .verified(info)
          } else {
            verifiedInfo = .unverified(info, .invalidSignature)
          }
          return Product.SubscriptionInfo.Status(
            state: .init(entry.record.status), transaction: verification(of: transaction, in: store), renewalInfo: verifiedInfo)
        }
      }
    } catch {
      report("reading the subscription status failed: \(describe(error))")
      throw StoreKitError.unknown
    }
  }
}
