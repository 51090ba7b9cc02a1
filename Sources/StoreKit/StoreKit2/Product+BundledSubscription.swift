import Foundation
internal import StoreEngine

extension Product.SubscriptionInfo {
  /// A subscription included in a subscription bundle or suite (iOS 27): what the bundle's
  /// ``Product/SubscriptionInfo/bundledSubscriptions`` lists.
  ///
  /// A bundle's subscriptions are products of the catalog's own groups, described as the catalog
  /// sells them on their own. A suite's exist only inside the suite: their names are the file's,
  /// their group the suite's, and their price zero, as nothing sells them alone (DECISIONS §47).
  public struct BundledSubscription: Equatable, Hashable, Sendable, Identifiable {
    /// The unique product identifier.
    public let id: Product.ID
    /// A localized display name of the product.
    public let displayName: String
    /// A localized description of the product.
    public let description: String
    /// The price of the subscription when sold on its own.
    public let price: Decimal
    /// A localized string representation of `price`.
    public let displayPrice: String
    /// Whether the product is available for family sharing.
    public let isFamilyShareable: Bool
    /// The group identifier for this subscription.
    public let subscriptionGroupID: String
    /// The level of this subscription relative to other subscriptions in the same group.
    public let subscriptionGroupLevel: Int
    /// A localized display name of the subscription's group.
    public let subscriptionGroupDisplayName: String

    init(
      _ included: StoreEngine.BundledSubscription, currency: String, locale: String, catalog: StoreEngine.Catalog?,
      suite: StoreEngine.SubscriptionGroup?
    ) {
      id = included.productID.rawValue
      let product = catalog?.product(included.productID)
      let own = Localization.best(in: included.localizations, for: locale)
      let name = product?.displayName(locale: locale) ?? own?.displayName ?? ""
      displayName = name.isEmpty ? included.referenceName : name
      description = product?.displayDescription(locale: locale) ?? own?.description ?? ""
      let amount = product.map { Money.rounded($0.price, currencyCode: currency) } ?? 0
      price = amount
      displayPrice = PriceFormatter.string(for: amount, currencyCode: currency, locale: locale)
      isFamilyShareable = product?.familyShareable ?? false
      let groupID = product?.subscription?.groupID ?? (included.groupID.isEmpty ? suite?.id ?? "" : included.groupID)
      subscriptionGroupID = groupID
      subscriptionGroupLevel = product?.subscription?.level ?? 1
      let group = catalog?.group(groupID) ?? suite
      let groupName = group.flatMap { Localization.best(in: $0.localizations, for: locale)?.displayName } ?? ""
      subscriptionGroupDisplayName = groupName.isEmpty ? (group?.name ?? "") : groupName
    }
  }
}
