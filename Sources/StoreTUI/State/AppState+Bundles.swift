import StoreEngine

extension AppState {
  /// What a subscription bundle or suite includes, by display name (the included product's own
  /// name for a bundle, the file's name for a suite's); empty for other products (DECISIONS §47).
  public func bundledNames(of product: Product.ID) -> [String] {
    guard let included = self.product(product)?.subscription?.bundledSubscriptions else { return [] }
    return included.map { entry in
      if self.product(entry.productID) != nil { return displayName(of: entry.productID) }
      let own = Localization.best(in: entry.localizations, for: controls.locale)?.displayName ?? ""
      return own.isEmpty ? entry.referenceName : own
    }
  }
}
