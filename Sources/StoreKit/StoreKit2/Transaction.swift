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
  public let environment: AppStore.Environment
  public let reason: Reason
  public let storefront: Storefront
  public let price: Decimal?
  public let currency: Locale.Currency?
  public let offer: Offer?
  /// The signed payload's JSON.
  public let jsonRepresentation: Data
  /// Not made by the simulated store (no device); empty.
  public let deviceVerification: Data
  public let deviceVerificationNonce: UUID
  /// The compact JWS (``VerificationResult/jwsRepresentation`` hands it out).
  let jws: String

  init(_ transaction: StoreEngine.PaymentTransaction, bundleID: String, jws: String) {
    id = transaction.id.rawValue
    originalID = transaction.originalID.rawValue
    webOrderLineItemID = transaction.webOrderLineItemID.map(String.init)
    productID = transaction.productID.rawValue
    subscriptionGroupID = transaction.subscriptionGroupID
    appBundleID = bundleID
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
    reason = transaction.reason == .renewal ? .renewal : .purchase
    storefront = Storefront(code: transaction.storefront)
    price = transaction.price
    currency = Locale.Currency(transaction.currency)
    offer = transaction.offerType.map { Offer(kind: $0, id: transaction.offerID, mode: transaction.offerPaymentMode) }
    self.jws = jws
    let payload = Self.payload(of: jws)
    jsonRepresentation = payload ?? Data()
    let object = payload.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    signedDate = (object?["signedDate"] as? Double).map { Date(timeIntervalSince1970: $0 / 1000) } ?? transaction.purchaseDate
    environment = AppStore.Environment(rawValue: object?["environment"] as? String ?? "Sandbox")
    deviceVerification = Data()
    deviceVerificationNonce = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
  }

  /// The payload part of a compact JWS, decoded.
  static func payload(of jws: String) -> Data? {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    return Data(base64Encoded: text)
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
}

extension Transaction {
  /// Who owns a transaction.
  public struct OwnershipType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let purchased = OwnershipType(rawValue: "PURCHASED")
    public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
  }

  /// Why a transaction was refunded or revoked.
  public struct RevocationReason: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let developerIssue = RevocationReason(rawValue: 1)
    public static let other = RevocationReason(rawValue: 0)
  }

  /// Why the transaction exists.
  public struct Reason: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let purchase = Reason(rawValue: "PURCHASE")
    public static let renewal = Reason(rawValue: "RENEWAL")
  }

  /// The subscription offer a transaction applied.
  public struct Offer: Hashable, Sendable {
    public let type: OfferType
    public let id: String?
    public let paymentMode: PaymentMode?

    init(kind: SubscriptionOffer.Kind, id: String?, mode: SubscriptionOffer.PaymentMode?) {
      type = OfferType(rawValue: kind.rawValue)
      self.id = id
      paymentMode = mode.map(PaymentMode.init)
    }

    public struct PaymentMode: RawRepresentable, Hashable, Sendable {
      public let rawValue: String
      public init(rawValue: String) { self.rawValue = rawValue }
      public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
      public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
      public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")

      init(_ mode: SubscriptionOffer.PaymentMode) { self.init(rawValue: mode.discountType) }
    }
  }

  /// The kind of a subscription offer, with the `offerType` numbers of signed transactions.
  public struct OfferType: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let introductory = OfferType(rawValue: 1)
    public static let promotional = OfferType(rawValue: 2)
    public static let code = OfferType(rawValue: 3)
    public static let winBack = OfferType(rawValue: 4)
  }
}
