/// How a transaction relates to a subscription bundle or suite (format 6.x, iOS 27): StoreKit's
/// `Transaction.bundleProductID`, `bundleTransactionID`, `bundleOriginalTransactionID`,
/// `bundleSubscriptionGroupID` and `previousOriginalTransactionID`.
///
/// A component transaction (one of the subscriptions a bundle or suite includes, made with each of
/// the bundle's purchases and renewals) carries the four `bundle…` values. A bundle's own
/// transaction carries none of them (Apple: `bundleSubscriptionGroupID` is "only for transactions of
/// subscriptions included in a bundle"). `previousOriginalID` is set on the transactions of a
/// switch between a standalone subscription and a bundle, in either direction (DECISIONS §47).
public struct BundleLink: Sendable, Equatable, Codable {
  /// `bundleProductID`: the bundle or suite product this component transaction was made for.
  public var productID: Product.ID?
  /// `bundleTransactionID`: the bundle's transaction (purchase or renewal) this one came with.
  public var transactionID: PaymentTransaction.ID?
  /// `bundleOriginalTransactionID`: the bundle's original transaction.
  public var originalTransactionID: PaymentTransaction.ID?
  /// `bundleSubscriptionGroupID`: the bundle's (or suite's) subscription group.
  public var subscriptionGroupID: String?
  /// `previousOriginalTransactionID`: for a bundle's transactions, the standalone subscription's
  /// original transaction it replaced; for a standalone transaction, the bundle's.
  public var previousOriginalID: PaymentTransaction.ID?

  public init(
    productID: Product.ID? = nil, transactionID: PaymentTransaction.ID? = nil,
    originalTransactionID: PaymentTransaction.ID? = nil, subscriptionGroupID: String? = nil,
    previousOriginalID: PaymentTransaction.ID? = nil
  ) {
    self.productID = productID
    self.transactionID = transactionID
    self.originalTransactionID = originalTransactionID
    self.subscriptionGroupID = subscriptionGroupID
    self.previousOriginalID = previousOriginalID
  }

  /// True for a component transaction of a bundle or suite.
  public var isComponent: Bool { originalTransactionID != nil }
}

extension PaymentTransaction {
  /// `Transaction.RevocationReason.upgradedToBundle`'s number. Apple documents the StoreKit value
  /// but no number for it (0 other, 1 developer issue are documented); 2 is Storefront's (§47).
  public static let upgradedToBundleRevocationReason = 2

  /// The bundle original transaction whose status decides this component transaction's entitlement.
  public var bundleOriginalID: PaymentTransaction.ID? { self.bundle?.originalTransactionID }
}
