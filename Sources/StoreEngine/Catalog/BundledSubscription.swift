/// A subscription included in a bundle or suite subscription (format 6.x), as StoreKit's
/// `Product.SubscriptionInfo.BundledSubscription` describes it.
///
/// A bundle's subscriptions are products of the catalog's own subscription groups, also sold on
/// their own; a suite's exist only inside the suite, so the file describes them here.
public struct BundledSubscription: Sendable, Equatable {
  public var productID: Product.ID
  /// The included subscription's group (`subscriptionGroupID`); empty when the file names none.
  public var groupID: String
  /// The developer-facing name; the product ID when the file gives none.
  public var referenceName: String
  public var localizations: [Localization]

  public init(productID: Product.ID, groupID: String = "", referenceName: String = "", localizations: [Localization] = []) {
    self.productID = productID
    self.groupID = groupID
    self.referenceName = referenceName.isEmpty ? productID.rawValue : referenceName
    self.localizations = localizations
  }
}
