import Foundation

/// What a signed payload needs besides the transaction itself.
public struct SignedPayloadContext: Sendable, Equatable {
  /// The app's bundle id (`bundleId`); ignored by renewal infos, which carry none.
  public var bundleID: String
  /// When the payload is signed (`signedDate`): the engine's clock, never the wall clock.
  public var signedDate: Date
  /// `Sandbox` or `Xcode`: take it from ``TransactionSigner/environment``.
  public var environment: String
  /// Apple's numeric storefront id for the transaction's storefront ("143441" for USA).
  public var storefrontID: String
  /// The billing plan the transaction is billed on (``SubscriptionInfo/defaultBillingPlanType``),
  /// nil for a product without billing plans.
  public var billingPlanType: String?

  public init(bundleID: String, signedDate: Date, environment: String, storefrontID: String, billingPlanType: String? = nil) {
    self.bundleID = bundleID
    self.signedDate = signedDate
    self.environment = environment
    self.storefrontID = storefrontID
    self.billingPlanType = billingPlanType
  }
}

/// A value that cannot be put into a signed payload.
public enum SignedPayloadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The price does not fit Apple's integer milliunits.
  case priceOutOfRange(owner: String, price: Decimal)

  public var description: String {
    switch self {
    case .priceOutOfRange(let owner, let price):
      "The price \(price) of \(owner) does not fit in milliunits; use a smaller price in the catalog."
    }
  }
}

/// Builds the JSON payloads of signed transactions and renewal infos, byte for byte deterministic
/// (sorted keys, no escaped slashes), with Apple's JSON types.
public enum SignedPayloads {
  /// The `JWSTransactionDecodedPayload` of `transaction`.
  public static func transactionPayload(
    for transaction: PaymentTransaction, context: SignedPayloadContext
  ) throws -> JWSTransactionPayload {
    let isAutoRenewable = transaction.productKind == .autoRenewableSubscription
    let offerType = transaction.offerType
    var payload = JWSTransactionPayload(
      transactionId: transaction.id.description,
      originalTransactionId: transaction.originalID.description,
      webOrderLineItemId: isAutoRenewable ? transaction.webOrderLineItemID.map(String.init) : nil,
      bundleId: context.bundleID,
      productId: transaction.productID.rawValue,
      subscriptionGroupIdentifier: isAutoRenewable ? transaction.subscriptionGroupID : nil,
      purchaseDate: milliseconds(transaction.purchaseDate),
      originalPurchaseDate: milliseconds(transaction.originalPurchaseDate),
      // Apple dates only auto-renewables; a non-renewing subscription's term is the app's business.
      expiresDate: isAutoRenewable ? transaction.expiresDate.map(milliseconds) : nil,
      quantity: transaction.quantity,
      type: transaction.productKind.serverName,
      appAccountToken: transaction.appAccountToken,
      inAppOwnershipType: transaction.familySharedBy == nil ? "PURCHASED" : "FAMILY_SHARED",
      signedDate: milliseconds(context.signedDate),
      revocationReason: transaction.revocationDate == nil ? nil : (transaction.revocationReason ?? 0),
      revocationDate: transaction.revocationDate.map(milliseconds),
      isUpgraded: transaction.isUpgraded ? true : nil,
      offerType: offerType?.rawValue,
      // Introductory offers have no identifier in Apple's payloads.
      offerIdentifier: offerType == nil || offerType == .introductory ? nil : transaction.offerID,
      offerDiscountType: offerType == nil ? nil : transaction.offerPaymentMode?.discountType,
      offerPeriod: offerType == nil ? nil : transaction.offerPeriod,
      environment: context.environment,
      storefront: transaction.storefront,
      storefrontId: context.storefrontID,
      transactionReason: transaction.reason.rawValue,
      currency: transaction.currency,
      price: try milliunits(transaction.price, owner: "transaction \(transaction.id)"),
      appTransactionId: appTransactionID(account: transaction.account, bundleID: context.bundleID),
      revocationType: transaction.revocationDate == nil ? nil : transaction.familySharedBy == nil ? "REFUND_FULL" : "FAMILY_REVOKE",
      revocationPercentage: transaction.revocationDate == nil ? nil : 100_000
    )
    payload.billingPlanType = isAutoRenewable ? context.billingPlanType : nil
    if isAutoRenewable, let commitment = transaction.commitment {
      payload.commitmentInfo = TransactionCommitmentInfo(
        billingPeriodNumber: commitment.billingPeriodNumber, commitmentExpiresDate: milliseconds(commitment.expiresDate),
        commitmentPrice: try milliunits(commitment.price, owner: "commitment of transaction \(transaction.id)"),
        totalBillingPeriods: commitment.totalBillingPeriods)
    }
    if let bundle = transaction.bundle {
      payload.bundleProductId = bundle.productID?.rawValue
      payload.bundleTransactionId = bundle.transactionID?.description
      payload.bundleOriginalTransactionId = bundle.originalTransactionID?.description
      payload.bundleSubscriptionGroupIdentifier = bundle.subscriptionGroupID
      payload.previousOriginalTransactionId = bundle.previousOriginalID?.description
    }
    return payload
  }

  /// The `appTransactionId` of an account's download of the app: stable (derived, not stored), so
  /// every process and every payload of one account agree; 18 digits like Apple's.
  public static func appTransactionID(account: String, bundleID: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bundleID.utf8 + [0] + account.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return String(700_000_000_000_000_000 + hash % 100_000_000_000_000_000)
  }

  /// The JSON bytes of ``transactionPayload(for:context:)``: what ``TransactionSigner/sign(payload:)`` signs.
  public static func transaction(_ transaction: PaymentTransaction, context: SignedPayloadContext) throws -> Data {
    try json(transactionPayload(for: transaction, context: context))
  }

  /// The JSON bytes of `payload`: what ``encode(_:)`` writes, without its `JSONEncoder` for the
  /// plain values a store's payloads hold (``SignedPayloadJSON``).
  public static func json(_ payload: JWSTransactionPayload) throws -> Data {
    try SignedPayloadJSON.encode(payload) ?? encode(payload)
  }

  /// The JSON bytes of `payload`, written as a transaction payload's are.
  public static func json(_ payload: JWSRenewalInfoPayload) throws -> Data {
    try SignedPayloadJSON.encode(payload) ?? encode(payload)
  }

  /// The `JWSRenewalInfoDecodedPayload` of `info`.
  public static func renewalInfoPayload(
    for info: RenewalInfo, context: SignedPayloadContext
  ) throws -> JWSRenewalInfoPayload {
    var payload = JWSRenewalInfoPayload(
      originalTransactionId: info.originalTransactionID.description,
      autoRenewProductId: info.autoRenewProductID.rawValue,
      productId: info.productID.rawValue,
      autoRenewStatus: info.autoRenewStatus ? 1 : 0,
      expirationIntent: info.expirationIntent?.rawValue,
      isInBillingRetryPeriod: info.isInBillingRetryPeriod,
      priceIncreaseStatus: info.priceIncreaseStatus?.rawValue,
      gracePeriodExpiresDate: info.gracePeriodExpiresDate.map(milliseconds),
      offerType: info.offerType?.rawValue,
      offerIdentifier: info.offerType == nil || info.offerType == .introductory ? nil : info.offerID,
      offerDiscountType: info.offerType == nil ? nil : info.offerPaymentMode?.discountType,
      signedDate: milliseconds(context.signedDate),
      environment: context.environment,
      recentSubscriptionStartDate: milliseconds(info.recentSubscriptionStartDate),
      renewalDate: milliseconds(info.renewalDate),
      currency: info.currency,
      renewalPrice: try milliunits(info.renewalPrice, owner: "renewal info of \(info.originalTransactionID)"),
      appAccountToken: info.appAccountToken,
      eligibleWinBackOfferIds: info.eligibleWinBackOfferIDs,
      offerPeriod: info.offerType == nil ? nil : info.offerPeriod?.iso8601
    )
    payload.renewalBillingPlanType = info.renewalBillingPlanType
    if let commitment = info.commitment {
      payload.commitmentInfo = RenewalCommitmentInfo(
        commitmentAutoRenewProductId: commitment.autoRenewProductID.rawValue,
        commitmentAutoRenewStatus: commitment.willAutoRenew ? 1 : 0,
        commitmentRenewalBillingPlanType: commitment.billingPlanType,
        commitmentRenewalDate: milliseconds(commitment.renewalDate),
        commitmentRenewalPrice: try milliunits(commitment.renewalPrice, owner: "commitment of \(info.originalTransactionID)"))
    }
    return payload
  }

  /// The JSON bytes of ``renewalInfoPayload(for:context:)``.
  public static func renewalInfo(_ info: RenewalInfo, context: SignedPayloadContext) throws -> Data {
    try json(renewalInfoPayload(for: info, context: context))
  }

  /// Signs `transaction` with `signer`, taking the environment from the signer.
  public static func signedTransaction(
    _ transaction: PaymentTransaction, bundleID: String, signedDate: Date, storefrontID: String,
    billingPlanType: String? = nil, signer: any TransactionSigner
  ) throws -> String {
    let context = SignedPayloadContext(
      bundleID: bundleID, signedDate: signedDate, environment: signer.environment, storefrontID: storefrontID,
      billingPlanType: billingPlanType)
    return try signer.sign(payload: Self.transaction(transaction, context: context))
  }

  /// Signs `info` with `signer`, taking the environment from the signer.
  public static func signedRenewalInfo(
    _ info: RenewalInfo, signedDate: Date, signer: any TransactionSigner
  ) throws -> String {
    let context = SignedPayloadContext(
      bundleID: "", signedDate: signedDate, environment: signer.environment, storefrontID: "")
    return try signer.sign(payload: renewalInfo(info, context: context))
  }

  /// Compact JSON with sorted keys and unescaped slashes, so equal values give equal bytes.
  public static func encode<Value: Encodable>(_ value: Value) throws -> Data {
    try encoder.encode(value)
  }

  // `encode(_:)` keeps no state between calls, so one configured encoder serves every payload.
  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// Milliseconds since 1970, rounded to the nearest millisecond.
  ///
  /// A date beyond ±292 million years (only a hostile ledger clock could hold one) is clamped
  /// instead of trapping.
  public static func milliseconds(_ date: Date) -> Int64 {
    let value = (date.timeIntervalSince1970 * 1000).rounded()
    if let exact = Int64(exactly: value) { return exact }
    return value.isNaN ? 0 : value > 0 ? .max : .min
  }

  /// The date of a payload's millisecond timestamp.
  public static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// `amount` in thousandths, rounded half away from zero (4.99 → 4990).
  public static func milliunits(_ amount: Decimal, owner: String = "amount") throws -> Int64 {
    var scaled = amount * 1000
    var rounded = Decimal()
    NSDecimalRound(&rounded, &scaled, 0, .plain)
    // Whole numbers of a safe size convert directly; the text round trip was a tenth of a renewal.
    if rounded.magnitude < 1_000_000_000_000_000 {
      return NSDecimalNumber(decimal: rounded).int64Value
    }
    guard let value = Int64(rounded.description) else {
      throw SignedPayloadError.priceOutOfRange(owner: owner, price: amount)
    }
    return value
  }
}
