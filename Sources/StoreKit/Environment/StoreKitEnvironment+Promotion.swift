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
      try Self.requireSold(productID, in: store)
      return store.storePromotion.visibility[productID] ?? .default
    }
  }

  func setPromotionVisibility(_ visibility: SKProductStorePromotionVisibility, of productID: String) throws {
    try promotion { store in
      try Self.requireSold(productID, in: store)
      store.storePromotion.visibility[productID] = visibility == .default ? nil : visibility
    }
  }

  /// The order the app set, as the storefront's products (localized as a products request gives them).
  func promotionOrder() throws -> [SKProduct] {
    try promotion { store in
      store.storePromotion.order.compactMap { id in
        store.queue.catalog.product(.init(id)).map {
          SKProduct($0, locale: store.queue.controls.locale, storefront: store.queue.controls.storefront)
        }
      }
    }
  }

  func setPromotionOrder(_ productIDs: [String]) throws {
    try promotion { store in
      for id in productIDs { try Self.requireSold(id, in: store) }
      store.storePromotion.order = productIDs
    }
  }

  /// Runs `body` on the open store with the lock held; a store that cannot open is an `SKError`.
  private func promotion<T>(_ body: (OpenStore) throws -> T) throws -> T {
    do {
      return try read(body)
    } catch .open(let failure) {
      report("the promoted purchases could not be read: \(failure.description)")
      throw SKError.reported(.unknown)
    } catch .other(let text) where text.hasPrefix(Self.notSoldPrefix) {
      throw SKError.reported(.storeProductNotAvailable)
    } catch {
      throw SKError.reported(.unknown)
    }
  }

  private static let notSoldPrefix = "not sold: "

  /// A promoted purchase is a product the store sells.
  private static func requireSold(_ productID: String, in store: OpenStore) throws {
    guard store.queue.catalog.product(.init(productID)) != nil else {
      throw PromotionRefusal(text: notSoldPrefix + productID)
    }
  }
}

/// A promoted-purchase call named a product the store does not sell.
private struct PromotionRefusal: Error, CustomStringConvertible {
  let text: String
  var description: String { text }
}
