import Foundation

/// The payload of a signed transaction, with Apple's field names and JSON types
/// (`JWSTransactionDecodedPayload` in the App Store Server API).
///
/// Ids are strings, dates are integer milliseconds since 1970 and `price` is in milliunits of
/// `currency` (10990 = 10.99). Optional fields are left out of the JSON when nil, as Apple does.
public struct JWSTransactionPayload: Sendable, Equatable, Codable {
  public var transactionId: String
  public var originalTransactionId: String
  public var webOrderLineItemId: String?
  public var bundleId: String
  public var productId: String
  public var subscriptionGroupIdentifier: String?
  public var purchaseDate: Int64
  public var originalPurchaseDate: Int64
  public var expiresDate: Int64?
  public var quantity: Int
  /// `ProductKind.serverName`: "Consumable", "Non-Consumable", "Non-Renewing Subscription",
  /// "Auto-Renewable Subscription".
  public var type: String
  public var appAccountToken: String?
  /// "PURCHASED", or "FAMILY_SHARED" for a family member's copy of a purchase.
  public var inAppOwnershipType: String
  public var signedDate: Int64
  /// 0 other, 1 app issue.
  public var revocationReason: Int?
  public var revocationDate: Int64?
  /// Present (and true) only when the user upgraded to another subscription in the group.
  public var isUpgraded: Bool?
  /// 1 introductory, 2 promotional, 3 offer code, 4 win-back.
  public var offerType: Int?
  public var offerIdentifier: String?
  /// FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT.
  public var offerDiscountType: String?
  /// ISO 8601 duration of the whole offer (`P2M` for two monthly periods); only with an offer.
  public var offerPeriod: String?
  /// "Sandbox" or "Xcode".
  public var environment: String
  /// ISO 3166-1 alpha-3.
  public var storefront: String
  /// Apple's numeric storefront id as a string ("143441" for USA).
  public var storefrontId: String
  /// "PURCHASE" or "RENEWAL".
  public var transactionReason: String
  /// ISO 4217.
  public var currency: String
  /// Milliunits of `currency`.
  public var price: Int64
  /// The id of the app's download (`AppTransaction.appTransactionID`), the same for every
  /// transaction of one account and app.
  public var appTransactionId: String?
  /// REFUND_FULL, REFUND_PRORATED or FAMILY_REVOKE, for revoked transactions.
  public var revocationType: String?
  /// Milliunits of the price refunded or revoked (100000 = all of it).
  public var revocationPercentage: Int?
  /// `BILLED_UPFRONT` or `MONTHLY`, for a subscription whose catalog has billing plans; left out
  /// otherwise. Not an initializer parameter: only ``SignedPayloads`` sets it, from the catalog.
  public var billingPlanType: String? = nil
  /// The commitment of a period billed monthly (API 1.21). Set only by ``SignedPayloads``.
  public var commitmentInfo: TransactionCommitmentInfo? = nil
  /// Subscription bundles and suites (iOS 27; DECISIONS §47): on a component transaction, the
  /// bundle's product, transaction, original transaction and group; on the transactions of a switch
  /// between a standalone subscription and a bundle, the replaced chain's original transaction
  /// (`previousOriginalTransactionId`, App Store Server Notifications 2.16). Left out otherwise.
  /// Not initializer parameters: only ``SignedPayloads`` sets them.
  public var bundleProductId: String? = nil
  public var bundleTransactionId: String? = nil
  public var bundleOriginalTransactionId: String? = nil
  public var bundleSubscriptionGroupIdentifier: String? = nil
  public var previousOriginalTransactionId: String? = nil

  public init(
    transactionId: String, originalTransactionId: String, webOrderLineItemId: String? = nil,
    bundleId: String, productId: String, subscriptionGroupIdentifier: String? = nil,
    purchaseDate: Int64, originalPurchaseDate: Int64, expiresDate: Int64? = nil, quantity: Int,
    type: String, appAccountToken: String? = nil, inAppOwnershipType: String = "PURCHASED",
    signedDate: Int64, revocationReason: Int? = nil, revocationDate: Int64? = nil,
    isUpgraded: Bool? = nil, offerType: Int? = nil, offerIdentifier: String? = nil,
    offerDiscountType: String? = nil, offerPeriod: String? = nil, environment: String, storefront: String, storefrontId: String,
    transactionReason: String, currency: String, price: Int64, appTransactionId: String? = nil,
    revocationType: String? = nil, revocationPercentage: Int? = nil
  ) {
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
    self.webOrderLineItemId = webOrderLineItemId
    self.bundleId = bundleId
    self.productId = productId
    self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
    self.purchaseDate = purchaseDate
    self.originalPurchaseDate = originalPurchaseDate
    self.expiresDate = expiresDate
    self.quantity = quantity
    self.type = type
    self.appAccountToken = appAccountToken
    self.inAppOwnershipType = inAppOwnershipType
    self.signedDate = signedDate
    self.revocationReason = revocationReason
    self.revocationDate = revocationDate
    self.isUpgraded = isUpgraded
    self.offerType = offerType
    self.offerIdentifier = offerIdentifier
    self.offerDiscountType = offerDiscountType
    self.offerPeriod = offerPeriod
    self.environment = environment
    self.storefront = storefront
    self.storefrontId = storefrontId
    self.transactionReason = transactionReason
    self.currency = currency
    self.price = price
    self.appTransactionId = appTransactionId
    self.revocationType = revocationType
    self.revocationPercentage = revocationPercentage
  }
}
