import Foundation
internal import StoreEngine

/// A StoreKit 2 transaction: every field of its signed payload.
public struct Transaction: Identifiable, Hashable, Sendable {
  public let id: UInt64
  public let originalID: UInt64
  public let webOrderLineItemID: String?
  public let productID: String
  public let subscriptionGroupID: String?
  public let appBundleID: String
  public let purchaseDate: Date
  public let originalPurchaseDate: Date
  public let expirationDate: Date?
  public let purchasedQuantity: Int
  public let isUpgraded: Bool
  public let ownershipType: OwnershipType
  public let signedDate: Date
  public let revocationDate: Date?
  public let revocationReason: RevocationReason?
  public let productType: Product.ProductType
  public let appAccountToken: UUID?
  /// Where the store signed it: `Xcode` under an `SKTestSession`, `Sandbox` otherwise (the payload's
  /// `environment`).
  public let environment: AppStore.Environment
  public let reason: Reason
  public let storefront: Storefront
  public let price: Decimal?
  public let currency: Locale.Currency?
  public let offer: Offer?
  /// The plan a subscription is billed on (iOS 26.4): nil for a product without billing plans.
  public let billingPlanType: Product.SubscriptionInfo.BillingPlanType?
  /// For a payment of a monthly plan: the 12-month commitment it is part of.
  public let commitmentInfo: CommitmentInfo?
  /// The id of the app's download by this account (the payload's `appTransactionId`).
  public let appTransactionID: String
  /// The signed payload's JSON.
  public let jsonRepresentation: Data
  /// SHA-384 of ``deviceVerificationNonce`` and ``AppStore/deviceVerificationID`` (this device's).
  public let deviceVerification: Data
  public let deviceVerificationNonce: UUID
  /// The subscription bundle this transaction was made for, when it is one of the bundle's (or
  /// suite's) included subscriptions (iOS 27, back-deployed; DECISIONS §47).
  public let bundleProductID: String?
  /// The bundle's transaction this one came with.
  public let bundleTransactionID: String?
  /// The bundle's original transaction.
  public let bundleOriginalTransactionID: String?
  /// The bundle's subscription group. Only for transactions of subscriptions included in a bundle.
  public let bundleSubscriptionGroupID: String?
  /// After a switch between a standalone subscription and a bundle: for a bundle transaction, the
  /// standalone subscription's original transaction ID; for a standalone one, the bundle's.
  public let previousOriginalTransactionID: UInt64?
  /// The compact JWS (``VerificationResult/jwsRepresentation`` hands it out).
  let jws: String
  /// The payload's `offerPeriod` (ISO 8601), for the deprecated string accessor.
  let offerPeriodText: String?

  init(_ transaction: StoreEngine.PaymentTransaction, bundleID: String, jws: String) {
    let payload = Self.payload(of: jws)
    let signed = payload.flatMap { try? JSONDecoder().decode(JWSTransactionPayload.self, from: $0) }
    id = transaction.id.rawValue
    originalID = transaction.originalID.rawValue
    webOrderLineItemID = transaction.webOrderLineItemID.map(String.init)
    productID = transaction.productID.rawValue
    subscriptionGroupID = transaction.subscriptionGroupID
    appBundleID = signed?.bundleId ?? bundleID
    purchaseDate = transaction.purchaseDate
    originalPurchaseDate = transaction.originalPurchaseDate
    expirationDate = transaction.expiresDate
    purchasedQuantity = transaction.quantity
    isUpgraded = transaction.isUpgraded
    ownershipType = transaction.familySharedBy == nil ? .purchased : .familyShared
    revocationDate = transaction.revocationDate
    revocationReason = transaction.revocationReason.map { RevocationReason(rawValue: $0) }
    productType = Product.ProductType(transaction.productKind)
    appAccountToken = transaction.appAccountToken.flatMap(UUID.init(uuidString:))
    reason = Reason(rawValue: signed?.transactionReason ?? transaction.reason.rawValue)
    storefront = Storefront(code: signed?.storefront ?? transaction.storefront)
    price = transaction.price
    currency = Locale.Currency(signed?.currency ?? transaction.currency)
    offerPeriodText = signed?.offerPeriod ?? transaction.offerPeriod
    offer = transaction.offerType.map {
      Offer(kind: $0, id: transaction.offerID, mode: transaction.offerPaymentMode, period: signed?.offerPeriod ?? transaction.offerPeriod)
    }
    billingPlanType = (signed?.billingPlanType ?? transaction.billingPlanType).map(Product.SubscriptionInfo.BillingPlanType.init(rawValue:))
    commitmentInfo = CommitmentInfo(signed?.commitmentInfo, fallback: signed == nil ? transaction.commitment : nil)
    appTransactionID = signed?.appTransactionId ?? SignedPayloads.appTransactionID(account: transaction.account, bundleID: bundleID)
    self.jws = jws
    jsonRepresentation = payload ?? Data()
    signedDate = signed.map { SignedPayloads.date(milliseconds: $0.signedDate) } ?? transaction.purchaseDate
    environment = AppStore.Environment(rawValue: signed?.environment ?? "")
    let bundle = transaction.bundle
    bundleProductID = signed?.bundleProductId ?? bundle?.productID?.rawValue
    bundleTransactionID = signed?.bundleTransactionId ?? bundle?.transactionID?.description
    bundleOriginalTransactionID = signed?.bundleOriginalTransactionId ?? bundle?.originalTransactionID?.description
    bundleSubscriptionGroupID = signed?.bundleSubscriptionGroupIdentifier ?? bundle?.subscriptionGroupID
    previousOriginalTransactionID = signed?.previousOriginalTransactionId.flatMap { UInt64($0) } ?? bundle?.previousOriginalID?.rawValue
    let device = DeviceVerification(jws: jws)
    deviceVerification = device.hash
    deviceVerificationNonce = device.nonce
  }

  /// The payload part of a compact JWS, decoded.
  static func payload(of jws: String) -> Data? {
    try? CompactJWS(jws).payloadData
  }

  /// Tells the App Store the content was delivered: the transaction leaves `unfinished` and is not
  /// delivered again. Finishing twice does nothing.
  public func finish() async {
    let id = StoreEngine.PaymentTransaction.ID(id)
    do {
      try StoreKitEnvironment.shared.perform(.finish(id))
    } catch .engine(.alreadyFinished) {
      // As StoreKit: harmless.
    } catch {
      StoreKitEnvironment.shared.report("finishing transaction \(id) failed: \(StoreKitEnvironment.shared.describe(error))")
    }
  }

  /// The status of the subscription this transaction belongs to (nil for other products, or when
  /// the status cannot be read).
  public var subscriptionStatus: Product.SubscriptionInfo.Status? {
    get async {
      guard productType == .autoRenewable else { return nil }
      return try? await Product.SubscriptionInfo.status(transactionID: id)
    }
  }
}

extension Transaction: CustomDebugStringConvertible {
  /// The signed payload's JSON, pretty-printed (what Apple's shows).
  public var debugDescription: String { PrettyJSON.string(jsonRepresentation) }
}

/// Pretty-printed JSON for the `debugDescription`s of signed values.
enum PrettyJSON {
  static func string(_ data: Data) -> String {
    guard let object = try? JSONSerialization.jsonObject(with: data),
      let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else { return String(decoding: data, as: UTF8.self) }
    return String(decoding: pretty, as: UTF8.self)
  }
}
