extension StoreMachine {
  /// The store's answer to a payment for a product the catalog lacks (B70). One it sold before
  /// (the store still holds transactions of it: unfinished ones, a non-consumable, a live
  /// subscription) was removed from sale: `storeProductNotAvailable`, as for a product not on
  /// sale in the storefront. An id it never sold is not a product at all: `paymentInvalid`.
  func refusal(forMissingProduct id: Product.ID) -> StoreKitError {
    transactions.values.contains { $0.productID == id } ? .storeProductNotAvailable : .paymentInvalid
  }
}
