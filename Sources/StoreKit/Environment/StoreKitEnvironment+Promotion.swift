import Foundation
internal import StoreEngine

/// What the app changed of its promoted in-app purchases on this device: kept by the open store,
/// so a new session (a fresh install) starts from App Store Connect's settings.
struct StorePromotion {
  var visibility: [String: SKProductStorePromotionVisibility] = [:]
  var order: [String] = []
}

/// `SKProductStorePromotionController`'s calls over the open store's catalog.
extension StoreKitEnvironment {
  func promotionVisibility(of productID: String) throws -> SKProductStorePromotionVisibility {
    try promotion { store in
      guard Self.sells(productID, store) else { return .failure(.reported(.storeProductNotAvailable)) }
      return .success(store.storePromotion.visibility[productID] ?? .default)
    }
  }

  func setPromotionVisibility(_ visibility: SKProductStorePromotionVisibility, of productID: String) throws {
    try promotion { store -> Result<Void, SKError> in
      guard Self.sells(productID, store) else { return .failure(.reported(.storeProductNotAvailable)) }
      store.storePromotion.visibility[productID] = visibility == .default ? nil : visibility
      return .success(())
    }
  }

  /// The order the app set, as the storefront's products (localized as a products request gives them).
  func promotionOrder() throws -> [SKProduct] {
    try promotion { store in
      .success(
        store.storePromotion.order.compactMap { id in
          store.queue.catalog.product(.init(id)).map {
            SKProduct($0, locale: store.queue.controls.locale, storefront: store.queue.controls.storefront)
          }
        })
    }
  }

  /// Sets the order; one product the store does not sell refuses the whole order.
  func setPromotionOrder(_ productIDs: [String]) throws {
    try promotion { store -> Result<Void, SKError> in
      guard productIDs.allSatisfy({ Self.sells($0, store) }) else { return .failure(.reported(.storeProductNotAvailable)) }
      store.storePromotion.order = productIDs
      return .success(())
    }
  }

  /// Runs `body` on the open store with the lock held; a store that cannot open is reported and
  /// answers `SKError.unknown`, as StoreKit does when the App Store cannot be reached.
  private func promotion<T>(_ body: (OpenStore) -> Result<T, SKError>) throws -> T {
    let outcome: Result<T, SKError>
    do {
      outcome = try read(body)
    } catch {
      report("the promoted purchases could not be read: \(describe(error))")
      throw SKError.reported(.unknown)
    }
    return try outcome.get()
  }

  /// A promoted purchase is a product the store sells.
  private static func sells(_ productID: String, _ store: OpenStore) -> Bool {
    store.queue.catalog.product(.init(productID)) != nil
  }
}
