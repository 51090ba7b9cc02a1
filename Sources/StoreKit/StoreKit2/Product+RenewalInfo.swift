import Foundation
internal import StoreEngine

extension Product.SubscriptionInfo {
  /// What the next renewal of a subscription will do: every field of the renewal info the store
  /// last signed for the chain.
  public struct RenewalInfo: Equatable, Hashable, Sendable {
    public let originalTransactionID: UInt64
    /// The product of the current period.
    public let currentProductID: String
    /// Whether the subscription renews at ``renewalDate`` (false once the user turned renewal off).
    public let willAutoRenew: Bool
    /// The product the next renewal bills (differs after a downgrade).
    public let autoRenewPreference: String?
    /// Why the subscription ended or will end; nil while it renews.
    public let expirationReason: ExpirationReason?
    /// Whether the store is still trying to bill a failed renewal.
    public let isInBillingRetry: Bool
    /// Until when the user keeps access while billing is retried (billing grace period).
    public let gracePeriodExpirationDate: Date?
    public let priceIncreaseStatus: PriceIncreaseStatus
    /// The offer the next renewal applies, if any.
    public let offer: Transaction.Offer?
    public let environment: AppStore.Environment
    /// When the current unbroken run of paid periods began (the payload's `recentSubscriptionStartDate`).
    public let recentSubscriptionStartDate: Date
    /// When the next period starts (the current one's expiry).
    public let renewalDate: Date?
    /// What the next renewal charges, in ``currency``.
    public let renewalPrice: Decimal?
    /// The currency of ``renewalPrice``.
    public let currency: Locale.Currency?
    /// The win-back offers a lapsed subscriber may redeem (empty while subscribed).
    public let eligibleWinBackOfferIDs: [String]
    /// SHA-384 of ``deviceVerificationNonce`` and ``AppStore/deviceVerificationID`` (this device's).
    public let deviceVerification: Data
    public let deviceVerificationNonce: UUID
    /// When the store signed this renewal info.
    public let signedDate: Date
    /// The app's id of the user, from the purchase that started the chain.
    public let appAccountToken: UUID?
    /// The id of the app's download by this account.
    public let appTransactionID: String
    /// The signed payload's JSON.
    /// The plan the subscription renews on (iOS 26.4): nil for a product without billing plans.
    public let renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType?
    /// For a subscription in a monthly plan's commitment: what the commitment's end brings.
    public let commitmentInfo: CommitmentInfo?
    public let jsonRepresentation: Data
    let jws: String
    let offerPeriodText: String?

    init(_ record: SubscriptionRecord, bundleID: String) {
      jws = record.signedRenewalInfo ?? ""
      let payload = Transaction.payload(of: jws)
      jsonRepresentation = payload ?? Data()
      let signed = payload.flatMap { try? JSONDecoder().decode(JWSRenewalInfoPayload.self, from: $0) }
      originalTransactionID = record.originalID.rawValue
      currentProductID = signed?.productId ?? record.productID.rawValue
      willAutoRenew = signed.map { $0.autoRenewStatus == 1 } ?? record.autoRenew
      autoRenewPreference = signed?.autoRenewProductId ?? record.renewalProductID.rawValue
      expirationReason = (signed?.expirationIntent ?? record.expirationIntent?.rawValue).map(ExpirationReason.init(rawValue:))
      isInBillingRetry = signed?.isInBillingRetryPeriod ?? (record.status == .inBillingRetry || record.status == .inGracePeriod)
      gracePeriodExpirationDate = signed?.gracePeriodExpiresDate.map(SignedPayloads.date(milliseconds:)) ?? record.gracePeriodExpiresDate
      priceIncreaseStatus =
        switch record.priceIncreaseStatus {
        case .some(.consented): .agreed
        case .some(.notResponded): .pending
        case nil: record.priceIncreasePending ? .pending : .noIncreasePending
        }
      offerPeriodText = signed?.offerPeriod
      offer = signed.flatMap { signed in
        signed.offerType.map {
          Transaction.Offer(signedType: $0, id: signed.offerIdentifier, discountType: signed.offerDiscountType, period: signed.offerPeriod)
        }
      }
      environment = AppStore.Environment(rawValue: signed?.environment ?? "")
      recentSubscriptionStartDate =
        signed.map { SignedPayloads.date(milliseconds: $0.recentSubscriptionStartDate) } ?? record.recentStartDate ?? record.expiresDate
      renewalDate = signed.map { SignedPayloads.date(milliseconds: $0.renewalDate) } ?? record.expiresDate
      renewalPrice = signed.map { Decimal($0.renewalPrice) / 1000 }
      currency = signed.map { Locale.Currency($0.currency) }
      eligibleWinBackOfferIDs = signed?.eligibleWinBackOfferIds ?? []
      renewalBillingPlanType = signed?.renewalBillingPlanType.map(Product.SubscriptionInfo.BillingPlanType.init(rawValue:))
      commitmentInfo = CommitmentInfo(signed?.commitmentInfo)
      signedDate = signed.map { SignedPayloads.date(milliseconds: $0.signedDate) } ?? record.expiresDate
      appAccountToken = signed?.appAccountToken.flatMap(UUID.init(uuidString:))
      appTransactionID = SignedPayloads.appTransactionID(account: record.account, bundleID: bundleID)
      let device = DeviceVerification(jws: jws)
      deviceVerification = device.hash
      deviceVerificationNonce = device.nonce
    }

    /// Why a subscription expired, with Apple's raw values.
    public struct ExpirationReason: RawRepresentable, Equatable, Hashable, Sendable {
      public let rawValue: Int
      public init(rawValue: Int) { self.rawValue = rawValue }
      public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
      public static let billingError = ExpirationReason(rawValue: 2)
      public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
      public static let productUnavailable = ExpirationReason(rawValue: 4)
      public static let unknown = ExpirationReason(rawValue: 5)

      /// For the user: why the subscription ended.
      public var localizedDescription: String {
        switch self {
        case .autoRenewDisabled: "Automatic renewal was turned off"
        case .billingError: "Billing error"
        case .didNotConsentToPriceIncrease: "The price increase was not accepted"
        case .productUnavailable: "The product is no longer available"
        default: "Unknown reason"
        }
      }
    }

    /// Whether the customer answered a price increase.
    @frozen public enum PriceIncreaseStatus: Equatable, Hashable, Sendable {
      case noIncreasePending
      case pending
      case agreed

      /// For the user: the state of a price increase.
      public var localizedDescription: String {
        switch self {
        case .noIncreasePending: "No price increase pending"
        case .pending: "Price increase awaiting consent"
        case .agreed: "Price increase accepted"
        }
      }
    }
  }
}

extension Product.SubscriptionInfo.RenewalInfo: CustomDebugStringConvertible {
  /// The signed payload's JSON, pretty-printed.
  public var debugDescription: String { PrettyJSON.string(jsonRepresentation) }
}

/// The accessors Apple deprecated but still declares; each reads the signed field its replacement does.
extension Product.SubscriptionInfo.RenewalInfo {
  @available(*, deprecated, renamed: "offer.id", message: "Use the offer property instead")
  public var offerID: String? { offer?.id }

  @available(*, deprecated, renamed: "offer.type", message: "Use the offer property instead")
  public var offerType: Transaction.OfferType? { offer?.type }

  @available(*, deprecated, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
  public var offerPaymentModeStringRepresentation: String? { offer?.paymentMode?.rawValue }

  @available(*, deprecated, message: "Use the offer property instead")
  public var offerPeriodStringRepresentation: String? { offer == nil ? nil : offerPeriodText }

  @available(*, deprecated, message: "Use the environment property instead")
  public var environmentStringRepresentation: String { environment.rawValue }

  @available(*, deprecated, renamed: "currency.identifier", message: "Use the currency property instead")
  public var currencyCode: String? { currency?.identifier }
}
