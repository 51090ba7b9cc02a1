import Foundation

/// One transaction in the payment queue and the ledger, in StoreKit's vocabulary.
///
/// A transaction is a value: each state change produces a new value with the same ``id`` that the
/// engine commits to the ledger before any observer hears of it.
@dynamicMemberLookup
public struct PaymentTransaction: Sendable, Equatable, Codable, Identifiable, CustomReflectable {
  /// A transaction identifier: a positive number, written as a decimal string in JWS and JSON.
  public struct ID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public init?(_ text: String) {
      guard let value = UInt64(text) else { return nil }
      rawValue = value
    }
    public init(from decoder: any Decoder) throws {
      rawValue = try decoder.singleValueContainer().decode(UInt64.self)
    }
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
    public var description: String { String(rawValue) }
    public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Why a transaction exists: a purchase by the user or an automatic subscription renewal.
  public enum Reason: String, Sendable, Equatable, Codable {
    case purchase = "PURCHASE"
    case renewal = "RENEWAL"
  }

  /// The stored values; shared between copies until one of them changes (copy on write). Read and
  /// written through the transaction itself (`transaction.state`), by dynamic member lookup.
  public struct Fields: Sendable, Equatable, Codable {
    public var id: ID
    /// The first purchase this one continues (itself for a first purchase; the first purchase for
    /// restores, renewals and the "already purchased" path).
    public var originalID: ID
    /// The sandbox account the transaction belongs to.
    public var account: String
    public var productID: Product.ID
    public var productKind: ProductKind
    public var state: TransactionState
    public var quantity: Int
    public var applicationUsername: String?
    /// The StoreKit 2 `appAccountToken`: `applicationUsername` when it is a UUID.
    public var appAccountToken: String?
    public var purchaseDate: Date
    public var originalPurchaseDate: Date
    public var expiresDate: Date?
    /// The price charged, in the storefront's currency (zero when re-downloaded for free).
    public var price: Decimal
    public var currency: String
    /// ISO 3166-1 alpha-3 storefront code.
    public var storefront: String
    public var reason: Reason
    public var subscriptionGroupID: String?
    /// Shared by a subscription's purchase and its renewals' line items.
    public var webOrderLineItemID: UInt64?
    public var offerType: SubscriptionOffer.Kind?
    public var offerID: String?
    public var offerPaymentMode: SubscriptionOffer.PaymentMode?
    /// ISO 8601 duration of the whole offer applied (`offerPeriod`).
    public var offerPeriod: String?
    /// For a payment refused because the account already has this subscription (or changed plan
    /// within it): the current period's transaction, which StoreKit 2's `purchase()` returns.
    public var subscribedTransactionID: ID?
    public var revocationDate: Date?
    /// 0 other, 1 app issue (App Store Server API numbers).
    public var revocationReason: Int?
    public var isUpgraded: Bool
    /// Set when the transaction failed.
    public var error: StoreKitError?
    /// True once the app called `finishTransaction`; unfinished transactions are redelivered.
    public var isFinished: Bool
    /// The compact JWS of a purchased, restored or renewed transaction.
    public var signedTransaction: String?
    /// The compact JWS of the subscription's renewal info (auto-renewables only).
    public var signedRenewalInfo: String?
    /// For an interrupted purchase: it failed and waits for the issue to be resolved.
    public var needsResolution: Bool
    /// The app session (process) whose sheet a `purchasing` transaction waits on; nil once it leaves
    /// `purchasing`, and in ledgers written before sessions were recorded (decodes as nil, "no
    /// owner"). See ``AppSession``.
    public var ownerSession: String?
    /// The bundle id of the app whose queue the transaction is in: the app that bought or restored
    /// it (an attached app, or a storefront's simulated app); renewals stay in the first one's.
    /// Nil in ledgers written before apps were attached: in every app's queue.
    public var appBundleID: String?
    /// For a family member's copy of a Family Sharing purchase: the purchaser's account
    /// (`inAppOwnershipType` FAMILY_SHARED). Nil for the purchaser's own transactions.
    public var familySharedBy: String?
    /// The consumption information the app's server last sent for this transaction (Send
    /// Consumption Information); nil until one arrives, and in older ledgers.
    public var consumption: ConsumptionInformation?
    /// What the developer's server signed about the introductory offer for this purchase
    /// (`introductoryOfferEligibility(compactJWS:)`): true grants it, false withholds it, whatever
    /// the account's history says; nil leaves it to the history.
    public var introductoryOfferAllowed: Bool?
    /// The billing plan the customer chose (`MONTHLY` for a 12-month commitment billed monthly);
    /// nil for the catalog's default plan (billed up front). See ``Commitment``.
    public var billingPlanType: String?
    /// For a paid period of a `MONTHLY` plan: the commitment it belongs to and its number in it.
    public var commitment: Commitment?
    /// The subscription bundle this transaction belongs to, or the subscription a switch between a
    /// standalone subscription and a bundle replaced (format 6.x, iOS 27); nil otherwise and in
    /// older ledgers. See ``BundleLink``.
    public var bundle: BundleLink?
  }

  /// Copies of a transaction share one box: the engine passes transactions around a lot, and
  /// copying ~30 fields (a dozen of them strings) on every pass was most of a purchase's cost.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    // Mutated only through `mutableFields`, after a uniqueness check: never while shared.
    @usableFromInline var fields: Fields
    @usableFromInline init(_ fields: Fields) { self.fields = fields }
  }

  @usableFromInline var storage: Storage

  @usableFromInline var mutableFields: Fields {
    get { storage.fields }
    _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
      yield &storage.fields
    }
  }

  /// Every field, read and written as if it were a property of the transaction.
  // Inlinable so that a field access in another module compiles to a direct load, not a key path
  // walked at run time.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Fields, Value>) -> Value {
    get { storage.fields[keyPath: keyPath] }
    set { mutableFields[keyPath: keyPath] = newValue }
  }

  /// The transaction's identifier (also `Identifiable`'s).
  public var id: ID {
    get { storage.fields.id }
    set { mutableFields.id = newValue }
  }

  public init(
    id: ID, originalID: ID? = nil, account: String, productID: Product.ID, productKind: ProductKind,
    state: TransactionState = .purchasing, quantity: Int = 1, applicationUsername: String? = nil,
    purchaseDate: Date, originalPurchaseDate: Date? = nil, expiresDate: Date? = nil,
    price: Decimal = 0, currency: String = "USD", storefront: String = "USA", reason: Reason = .purchase
  ) {
    storage = Storage(Self.blank)
    self.id = id
    self.originalID = originalID ?? id
    self.account = account
    self.productID = productID
    self.productKind = productKind
    self.state = state
    self.quantity = quantity
    self.applicationUsername = applicationUsername
    self.appAccountToken = applicationUsername.flatMap { UUID(uuidString: $0)?.uuidString.lowercased() }
    self.purchaseDate = purchaseDate
    self.originalPurchaseDate = originalPurchaseDate ?? purchaseDate
    self.expiresDate = expiresDate
    self.price = price
    self.currency = currency
    self.storefront = storefront
    self.reason = reason
    self.subscriptionGroupID = nil
    self.webOrderLineItemID = nil
    self.offerType = nil
    self.offerID = nil
    self.offerPaymentMode = nil
    self.offerPeriod = nil
    self.subscribedTransactionID = nil
    self.revocationDate = nil
    self.revocationReason = nil
    self.isUpgraded = false
    self.error = nil
    self.isFinished = false
    self.signedTransaction = nil
    self.signedRenewalInfo = nil
    self.needsResolution = false
    self.ownerSession = nil
    self.appBundleID = nil
    self.familySharedBy = nil
    self.consumption = nil
  }

  private static let blank = Fields(
    id: ID(0),
    originalID: ID(0),
    account: "",
    productID: Product.ID(""),
    productKind: .consumable,
    state: .purchasing,
    quantity: 0,
    applicationUsername: nil,
    appAccountToken: nil,
    purchaseDate: Date(timeIntervalSince1970: 0),
    originalPurchaseDate: Date(timeIntervalSince1970: 0),
    expiresDate: nil,
    price: 0,
    currency: "",
    storefront: "",
    reason: .purchase,
    subscriptionGroupID: nil,
    webOrderLineItemID: nil,
    offerType: nil,
    offerID: nil,
    offerPaymentMode: nil,
    offerPeriod: nil,
    subscribedTransactionID: nil,
    revocationDate: nil,
    revocationReason: nil,
    isUpgraded: false,
    error: nil,
    isFinished: false,
    signedTransaction: nil,
    signedRenewalInfo: nil,
    needsResolution: false,
    ownerSession: nil,
    appBundleID: nil,
    familySharedBy: nil,
    consumption: nil,
    introductoryOfferAllowed: nil,
    billingPlanType: nil,
    commitment: nil,
    bundle: nil)

  public init(from decoder: any Decoder) throws {
    storage = Storage(try Fields(from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try storage.fields.encode(to: encoder)
  }

  public static func == (lhs: PaymentTransaction, rhs: PaymentTransaction) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
  }

  /// Reflects the fields, not the storage box (tests walk every field this way).
  public var customMirror: Mirror {
    Mirror(self, children: Mirror(reflecting: storage.fields).children)
  }

  /// True for states the app can finish (everything but `purchasing`).
  public var isFinishable: Bool { self.state != .purchasing }
}

/// `SKPaymentTransactionState`, with StoreKit's raw values.
public enum TransactionState: Int, Sendable, Equatable, Codable, CaseIterable, CustomStringConvertible {
  /// Added to the queue; waiting for the sheet, sign-in or the store.
  case purchasing = 0
  /// Charged (or re-downloaded); deliver the content, then finish.
  case purchased = 1
  /// Cancelled or failed; `error` says why. Finish it.
  case failed = 2
  /// Restored from an earlier purchase; deliver, then finish.
  case restored = 3
  /// Waiting for Ask to Buy approval; the final state arrives later.
  case deferred = 4

  public var description: String { name }

  /// The lower-case name used in JSON events and scenarios.
  public var name: String {
    switch self {
    case .purchasing: "purchasing"
    case .purchased: "purchased"
    case .failed: "failed"
    case .restored: "restored"
    case .deferred: "deferred"
    }
  }

  public init?(name: String) {
    guard let state = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = state
  }
}
