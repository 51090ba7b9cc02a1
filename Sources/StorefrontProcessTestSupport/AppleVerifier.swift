import Foundation

/// Apple's App Store Server Library (`app-store-server-library`, the versions pinned in
/// `Tests/python/requirements.txt`) in a Python virtual environment that the tests create
/// themselves in `.build/apple-verifier-venv`, driven through `Tests/python/verify_with_apple.py`.
///
/// The environment is made once and reused while `requirements.txt` is unchanged.
public struct AppleVerifier: Sendable {
  /// One JWS for Apple's `SignedDataVerifier`.
  public struct Case: Encodable, Sendable {
    /// Which `verify_and_decode_…` call checks it.
    public enum Kind: String, Encodable, Sendable {
      /// `verify_and_decode_signed_transaction`.
      case transaction
      /// `verify_and_decode_renewal_info`.
      case renewal
      /// `verify_and_decode_notification` (a notification's `signedPayload`).
      case notification
      /// `verify_and_decode_app_transaction` (`AppTransaction.shared`, Get App Transaction Info).
      case appTransaction
      /// `verify_and_decode_realtime_request` (a Retention Messaging realtime request's `signedPayload`).
      case realtime
    }

    /// Names the verdict.
    public var name: String
    /// Transaction or renewal info.
    public var kind: Kind
    /// The compact JWS.
    public var jws: String
    /// Path of the trusted root certificate, DER.
    public var rootDER: String
    /// The bundle id the verifier expects.
    public var bundleID: String
    /// Apple's `Environment` name.
    public var environment: String
    /// The `app_apple_id` a Production verifier expects (the script's default, 1234567890, when nil).
    public var appAppleID: Int64?

    /// A case for `verify_with_apple.py`.
    public init(name: String, kind: Kind, jws: String, rootDER: String, bundleID: String, environment: String = "SANDBOX") {
      self.name = name
      self.kind = kind
      self.jws = jws
      self.rootDER = rootDER
      self.bundleID = bundleID
      self.environment = environment
    }

    // The keys verify_with_apple.py reads.
    private enum CodingKeys: String, CodingKey {
      case name, kind, jws, environment
      case rootDER = "root_der"
      case bundleID = "bundle_id"
      case appAppleID = "app_apple_id"
    }
  }

  /// Apple's verdict on one case.
  public struct Verdict: Decodable, Sendable {
    /// A few fields of the model Apple's library decoded, to cross-check.
    /// The fields of Apple's `TransactionCommitmentInfo` and `RenewalCommitmentInfo` models.
    public struct CommitmentInfo: Decodable, Equatable, Sendable {
      public var billingPeriodNumber: Int?
      public var commitmentExpiresDate: Int64?
      public var commitmentPrice: Int64?
      public var totalBillingPeriods: Int?
      public var commitmentAutoRenewProductId: String?
      public var commitmentAutoRenewStatus: Int?
      public var commitmentRenewalBillingPlanType: String?
      public var commitmentRenewalDate: Int64?
      public var commitmentRenewalPrice: Int64?
    }

    public struct Decoded: Decodable, Equatable, Sendable {
      /// `transactionId`.
      public var transactionId: String?
      /// `originalTransactionId`.
      public var originalTransactionId: String?
      /// `bundleId`.
      public var bundleId: String?
      /// `productId`.
      public var productId: String?
      /// `price`, in milliunits.
      public var price: Int64?
      /// `currency`.
      public var currency: String?
      /// `quantity`.
      public var quantity: Int?
      /// `rawType` (`Consumable`, `Auto-Renewable Subscription`, …).
      public var rawType: String?
      /// `environment` (`Sandbox`).
      public var environment: String?
      /// `signedDate`, in milliseconds since 1970.
      public var signedDate: Int64?
      /// `autoRenewProductId` (renewal info).
      public var autoRenewProductId: String?
      /// `autoRenewStatus` (renewal info).
      public var autoRenewStatus: Int?
      /// `renewalPrice` (renewal info), in milliunits.
      public var renewalPrice: Int64?
      /// `purchaseDate`, in milliseconds since 1970.
      public var purchaseDate: Int64?
      /// `inAppOwnershipType` as sent (`PURCHASED`, `FAMILY_SHARED`).
      public var inAppOwnershipType: String?
      /// `appTransactionId`.
      public var appTransactionId: String?
      /// `revocationType` as sent (`REFUND_FULL`, `FAMILY_REVOKE`, …).
      public var revocationType: String?
      /// `revocationPercentage`, in milliunits.
      public var revocationPercentage: Int?
      /// `offerPeriod` (ISO 8601 duration).
      public var offerPeriod: String?
      /// `billingPlanType` as sent.
      public var billingPlanType: String?
      /// `renewalBillingPlanType` as sent (renewal info, API 1.21).
      public var renewalBillingPlanType: String?
      /// `commitmentInfo`: a transaction's `TransactionCommitmentInfo` or a renewal info's
      /// `RenewalCommitmentInfo` (API 1.21), as Apple's library decoded it.
      public var commitmentInfo: CommitmentInfo?
      /// `webOrderLineItemId`.
      public var webOrderLineItemId: String?
      /// `isInBillingRetryPeriod` (renewal info).
      public var isInBillingRetryPeriod: Bool?
      /// `gracePeriodExpiresDate` (renewal info), in milliseconds since 1970.
      public var gracePeriodExpiresDate: Int64?
      /// `priceIncreaseStatus` as sent (renewal info).
      public var priceIncreaseStatus: Int?
      /// `eligibleWinBackOfferIds` (renewal info).
      public var eligibleWinBackOfferIds: [String]?
      /// `notificationType` as sent (notifications).
      public var notificationType: String?
      /// `subtype` as sent (notifications).
      public var subtype: String?
      /// `notificationUUID` (notifications).
      public var notificationUUID: String?
      /// `version` (notifications).
      public var version: String?
      /// `data.appAppleId` or `summary.appAppleId` (notifications); `appAppleId` (realtime requests).
      public var appAppleId: Int64?
      /// `userLocale` (realtime requests).
      public var userLocale: String?
      /// `requestIdentifier` (realtime requests).
      public var requestIdentifier: String?
      /// `data.signedTransactionInfo` (notifications).
      public var signedTransactionInfo: String?
      /// `data.signedRenewalInfo` (notifications).
      public var signedRenewalInfo: String?
      /// `data.status` (notifications).
      public var status: Int?

      /// Decoded fields, for comparing with what Apple's library returned.
      public init(
        transactionId: String? = nil, originalTransactionId: String? = nil, bundleId: String? = nil,
        productId: String? = nil, price: Int64? = nil, currency: String? = nil, quantity: Int? = nil,
        rawType: String? = nil, environment: String? = nil, signedDate: Int64? = nil,
        autoRenewProductId: String? = nil, autoRenewStatus: Int? = nil, renewalPrice: Int64? = nil
      ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.bundleId = bundleId
        self.productId = productId
        self.price = price
        self.currency = currency
        self.quantity = quantity
        self.rawType = rawType
        self.environment = environment
        self.signedDate = signedDate
        self.autoRenewProductId = autoRenewProductId
        self.autoRenewStatus = autoRenewStatus
        self.renewalPrice = renewalPrice
      }
    }

    /// The case's name.
    public var name: String
    /// 0 when `SignedDataVerifier` accepted the JWS, else its `VerificationStatus`.
    public var status: Int
    /// The underlying exception, when rejected.
    public var cause: String?
    /// What was decoded, when accepted.
    public var decoded: Decoded?
    /// A transaction's subscription bundle fields (DECISIONS §47), apart from ``decoded`` so its
    /// whole-value comparisons stay as they were.
    public var bundle: BundleFields?

    /// A transaction's revocation reason and subscription bundle fields. app-store-server-library
    /// 3.1.2's model has no attributes for the bundle fields: the script reads them from the
    /// verified payload's JSON.
    public struct BundleFields: Decodable, Equatable, Sendable {
      /// `revocationReason` as sent (`rawRevocationReason`; 2 is Storefront's `upgradedToBundle`).
      public var revocationReason: Int?
      /// `bundleProductId`.
      public var bundleProductId: String?
      /// `bundleTransactionId`.
      public var bundleTransactionId: String?
      /// `bundleOriginalTransactionId`.
      public var bundleOriginalTransactionId: String?
      /// `bundleSubscriptionGroupIdentifier`.
      public var bundleSubscriptionGroupIdentifier: String?
      /// `previousOriginalTransactionId`.
      public var previousOriginalTransactionId: String?
    }

    /// A transaction's offer as Apple's models read it.
    public var offer: Offer?

    /// A transaction's offer fields, as Apple's library decoded them (B89).
    public struct Offer: Decodable, Equatable, Sendable {
      /// `offerType` as sent (3: an offer code).
      public var offerType: Int?
      /// The name of Apple's `OfferType` case for it (`OFFER_CODE`), nil when Apple's library does not know it.
      public var offerTypeName: String?
      /// `offerIdentifier`.
      public var offerIdentifier: String?
      /// `offerDiscountType` as sent (`ONE_TIME`, `FREE_TRIAL`, …).
      public var offerDiscountType: String?
      /// Whether Apple's library knows the `offerDiscountType` (its `OfferDiscountType` enum has the value).
      public var offerDiscountTypeKnown: Bool?
    }
  }

  /// Apple's library cannot be set up here; the test decides whether that skips or fails it.
  public typealias Unavailable = PythonEnvironment.Unavailable

  /// `verify_with_apple.py` did not finish its work.
  public struct Failure: Error, CustomStringConvertible {
    /// What happened.
    public var description: String
  }

  /// The pinned requirements.
  public static let requirements = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/requirements.txt")
  /// The driver script.
  public static let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/verify_with_apple.py")
  /// The virtual environment.
  public static let venv = StorefrontBinary.packageRoot.appendingPathComponent(".build/apple-verifier-venv")
  /// The environment's Python.
  public let python: URL

  /// The cached environment (``PythonEnvironment/prepare(requirements:in:)``).
  ///
  /// - Throws: ``Unavailable`` when Python's `venv` or PyPI is unavailable.
  public static func prepare() throws -> AppleVerifier {
    AppleVerifier(python: try PythonEnvironment.prepare(requirements: requirements, in: venv).python)
  }

  /// Runs every case through Apple's library; the verdicts by case name.
  ///
  /// - Throws: ``Failure`` when the script fails or prints something else than verdicts.
  public func verify(_ cases: [Case]) throws -> [String: Verdict] {
    let request = try JSONEncoder().encode(["cases": cases])
    let result = try ChildProcess.run(python.path, [Self.script.path], stdin: request, timeout: 300)
    guard result.status == 0, !result.signalled else {
      throw Failure(description: "verify_with_apple.py: \(result.summary)")
    }
    let verdicts = try JSONDecoder().decode([Verdict].self, from: result.stdoutData)
    return Dictionary(verdicts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }
}
