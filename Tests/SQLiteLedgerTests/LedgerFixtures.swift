import Foundation
import StoreEngine

/// Transactions and accounts for the ledger tests, with fixed dates and ids.
enum LedgerFixtures {
  /// 2024-05-01T12:00:00Z.
  static let baseDate = Date(timeIntervalSince1970: 1_714_564_800)

  static func transaction(
    _ id: UInt64, account: String = "alice", product: String = "com.example.gems",
    state: TransactionState = .purchasing, finished: Bool = false, secondsAfterBase: Double = 0
  ) -> PaymentTransaction {
    var transaction = PaymentTransaction(
      id: .init(id), account: account, productID: .init(product), productKind: .consumable,
      state: state,
      purchaseDate: baseDate.addingTimeInterval(secondsAfterBase),
      price: Decimal(sign: .plus, exponent: -2, significand: 99))
    transaction.isFinished = finished
    return transaction
  }

  /// A transaction with every optional field set and every flag away from its default.
  static func fullyPopulated(
    id: UInt64 = 1_000_000_002,
    price: Decimal = Decimal(sign: .plus, exponent: -2, significand: 1234),
    purchaseDate: Date = baseDate.addingTimeInterval(0.25)
  ) -> PaymentTransaction {
    var transaction = PaymentTransaction(
      id: .init(id), originalID: .init(1_000_000_001), account: "bob@example.com",
      productID: .init("com.example.pro.monthly"), productKind: .autoRenewableSubscription,
      state: .restored,
      quantity: 3, applicationUsername: "6F9619FF-8B86-D011-B42D-00C04FC964FF",
      purchaseDate: purchaseDate,
      originalPurchaseDate: baseDate.addingTimeInterval(-86_400),
      expiresDate: baseDate.addingTimeInterval(2_592_000.5),
      price: price, currency: "EUR", storefront: "FRA", reason: .renewal)
    transaction.subscriptionGroupID = "21482456"
    transaction.webOrderLineItemID = 2_000_000_017
    transaction.offerType = .promotional
    transaction.offerID = "spring_promo"
    transaction.offerPaymentMode = .payUpFront
    transaction.offerPeriod = "P3M"
    transaction.subscribedTransactionID = .init(1_000_000_001)
    transaction.revocationDate = baseDate.addingTimeInterval(3_600.125)
    transaction.revocationReason = 1
    transaction.isUpgraded = true
    transaction.error = .serverUnknown
    transaction.isFinished = true
    transaction.signedRenewalInfo = "eyJhbGciOiJFUzI1NiJ9.eyJyZW5ld2FsIjp0cnVlfQ.sig"
    transaction.signedTransaction =
      "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJl/+="
    transaction.needsResolution = true
    transaction.ownerSession = "4242:1234567@0f1e2d3c-boot"
    transaction.appBundleID = "com.example.attached"
    transaction.familySharedBy = "parent"
    transaction.introductoryOfferAllowed = true
    transaction.billingPlanType = "MONTHLY"
    transaction.commitment = Commitment(
      startDate: baseDate, billingPeriodNumber: 3, totalBillingPeriods: 12,
      expiresDate: baseDate.addingTimeInterval(31_536_000.25), price: Decimal(string: "35.88") ?? 0)
    transaction.bundle = BundleLink(
      productID: .init("com.example.bundle.monthly"), transactionID: .init(1_000_000_002),
      originalTransactionID: .init(1_000_000_001), subscriptionGroupID: "BBBB0061", previousOriginalID: .init(999_999_999))
    transaction.consumption = ConsumptionInformation(
      customerConsented: true, sampleContentProvided: false, deliveryStatus: "DELIVERED", consumptionPercentage: 50_000,
      refundPreference: "GRANT_FULL", receivedDate: baseDate.addingTimeInterval(7_200.5))
    return transaction
  }

  /// A subscription chain's record with original id `id`.
  static func subscription(_ id: UInt64, account: String, renewals: Int = 0) -> SubscriptionRecord {
    SubscriptionRecord(
      originalID: PaymentTransaction.ID(id), account: account, groupID: "group", productID: Product.ID("monthly"),
      renewalProductID: Product.ID("monthly"), autoRenew: true, status: .subscribed,
      expiresDate: baseDate.addingTimeInterval(2_592_000), renewalCount: renewals, gracePeriodExpiresDate: nil,
      expirationIntent: nil, priceIncreasePending: false, webOrderLineItemID: 1_000_000_001)
  }

  /// ``subscription(_:account:renewals:)`` billed monthly, in period 3 of a 12-month commitment.
  static func committedSubscription(_ id: UInt64, account: String) -> SubscriptionRecord {
    var record = subscription(id, account: account, renewals: 2)
    record.billingPlanType = "MONTHLY"
    record.commitment = Commitment(
      startDate: baseDate, billingPeriodNumber: 3, totalBillingPeriods: 12,
      expiresDate: baseDate.addingTimeInterval(31_536_000.25), price: Decimal(string: "35.88") ?? 0)
    return record
  }

  static let alice = SandboxAccount(name: "alice")
  static let bob = SandboxAccount(
    name: "bob@example.com",
    passwordHash: PasswordHash(
      algorithm: "pbkdf2-sha256", iterations: 210_000, salt: "c2FsdA==", hash: "aGFzaA=="),
    storefront: "FRA")
}
