import Foundation

/// Format 6.x bundle and suite subscriptions: what each one includes.
extension CatalogWalker {
  /// The keys that list what a bundle or suite includes; either is read in either group.
  static let bundledSubscriptionKeys = ["bundledSubscriptions", "suiteSubscriptions"]

  /// The subscriptions a bundle or suite subscription includes. A bundle's must be subscriptions
  /// of the catalog's own groups (checked by ``checkBundledReferences(products:)`` once every
  /// product is known); a suite's exist only here.
  mutating func bundledSubscriptions(_ object: [String: JSONValue], path: JSONPath, groupKind: SubscriptionGroup.Kind) -> [BundledSubscription] {
    let present = Self.bundledSubscriptionKeys.filter { object[$0].map { !$0.isNull } ?? false }
    guard let key = present.first, let value = object[key] else {
      let what = groupKind == .bundle ? "the subscriptions of your groups it includes" : "the subscriptions it includes"
      report(path, "missing required field 'bundledSubscriptions': a \(groupKind.rawValue) subscription includes other subscriptions", hint: "add \"bundledSubscriptions\" : [ { \"productID\" : …, \"subscriptionGroupID\" : … } ] listing \(what)")
      return []
    }
    let arrayPath = path.appending(key)
    guard let array = value.arrayValue else {
      report(arrayPath, "must be an array of included subscriptions, not \(value.kind)", hint: "write \"\(key)\" : [ { \"productID\" : …, \"subscriptionGroupID\" : … } ]")
      return []
    }
    var result: [BundledSubscription] = []
    for (index, element) in array.enumerated() {
      let elementPath = arrayPath.appending(index)
      guard let entry = element.objectValue else {
        report(elementPath, "must be an object naming an included subscription, not \(element.kind)", hint: "write { \"productID\" : \"com.example.app.pro.monthly\", \"subscriptionGroupID\" : \"…\" }")
        continue
      }
      guard let id = string(entry, "productID", in: elementPath, required: true, example: "com.example.app.pro.monthly") else { continue }
      let groupID = string(entry, "subscriptionGroupID", in: elementPath) ?? ""
      let referenceName = string(entry, "referenceName", in: elementPath) ?? ""
      let localizations = self.localizations(entry["localizations"], path: elementPath.appending("localizations"))
      if groupKind == .bundle { bundledReferences.append((Product.ID(id), elementPath.appending("productID"))) }
      result.append(BundledSubscription(productID: Product.ID(id), groupID: groupID, referenceName: referenceName, localizations: localizations))
    }
    if array.isEmpty {
      report(arrayPath, "a \(groupKind.rawValue) subscription must include at least one subscription", hint: "list the included subscriptions as { \"productID\" : …, \"subscriptionGroupID\" : … }")
    }
    return result
  }

  /// Reports each product a bundle includes that is not an auto-renewable subscription of one of
  /// the catalog's (regular) subscription groups.
  mutating func checkBundledReferences(products: [Product]) {
    guard !bundledReferences.isEmpty else { return }
    var subscriptions: [Product.ID: Product] = [:]
    for product in products where product.kind == .autoRenewableSubscription && (product.subscription?.bundledSubscriptions.isEmpty ?? true) {
      subscriptions[product.id] = product
    }
    let read = Set(products.map(\.id))
    // A product that failed to read has its own issue; naming it again here would only mislead.
    for (id, path) in bundledReferences where subscriptions[id] == nil && (read.contains(id) || !wasSeen(id)) {
      let didYouMean = NearMatch.closest(to: id.rawValue, in: subscriptions.keys.map(\.rawValue).sorted()).map { "did you mean '\($0)'? " } ?? ""
      report(path, "bundled subscription '\(id)' is not a subscription of this catalog", hint: "\(didYouMean)a bundle includes subscriptions that are also sold on their own: add '\(id)' to a subscription group, or list it in a suite (subscriptionSuiteGroups) instead")
    }
  }
}
