import Foundation

/// Whether the App Store shows a promoted in-app purchase on this device.
public enum SKProductStorePromotionVisibility: Int, Sendable, Hashable {
  /// As App Store Connect says.
  case `default` = 0
  case show = 1
  case hide = 2
}

/// The app's overrides of its promoted in-app purchases on the App Store page: their visibility and
/// order, kept by the open store (a new `SKTestSession` starts with none, as a fresh install does).
///
/// Completion handlers (`@Sendable`, as in Apple's current SDK) are called on the main queue; the
/// store answers at once.
open class SKProductStorePromotionController: NSObject, @unchecked Sendable {
  private static let shared = SKProductStorePromotionController()

  /// The app's controller. Called on a subclass, stops with a message (see `SKPaymentQueue.default()`).
  open class func `default`() -> Self {
    guard let controller = shared as? Self else {
      preconditionFailure("\(Self.self).default(): the app's controller is an SKProductStorePromotionController, not a \(Self.self)")
    }
    return controller
  }

  /// The visibility the app set for `product` on this device (`.default` until it sets one).
  open func fetchStorePromotionVisibility(
    for product: SKProduct, completionHandler: (@Sendable (SKProductStorePromotionVisibility, (any Error)?) -> Void)? = nil
  ) {
    let outcome = Result { try StoreKitEnvironment.shared.promotionVisibility(of: product.productIdentifier) }
    guard let completionHandler else { return }
    DispatchQueue.main.async {
      switch outcome {
      case .success(let visibility): completionHandler(visibility, nil)
      case .failure(let error): completionHandler(.default, error)
      }
    }
  }

  /// As ``fetchStorePromotionVisibility(for:completionHandler:)``.
  open func promotionVisibility(for product: SKProduct) async throws -> SKProductStorePromotionVisibility {
    try StoreKitEnvironment.shared.promotionVisibility(of: product.productIdentifier)
  }

  /// Shows or hides `product` on the App Store page on this device; fails with
  /// ``SKError/Code/storeProductNotAvailable`` for a product the store does not sell.
  open func update(
    storePromotionVisibility promotionVisibility: SKProductStorePromotionVisibility, for product: SKProduct,
    completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
  ) {
    let error = Self.failure { try StoreKitEnvironment.shared.setPromotionVisibility(promotionVisibility, of: product.productIdentifier) }
    call(completionHandler, with: error)
  }

  /// As ``update(storePromotionVisibility:for:completionHandler:)``.
  open func update(promotionVisibility: SKProductStorePromotionVisibility, for product: SKProduct) async throws {
    try StoreKitEnvironment.shared.setPromotionVisibility(promotionVisibility, of: product.productIdentifier)
  }

  /// The order the app set for its promoted products (empty until it sets one).
  open func fetchStorePromotionOrder(completionHandler: (@Sendable ([SKProduct], (any Error)?) -> Void)? = nil) {
    let outcome = Result { try StoreKitEnvironment.shared.promotionOrder() }
    guard let completionHandler else { return }
    DispatchQueue.main.async {
      switch outcome {
      case .success(let products): completionHandler(products, nil)
      case .failure(let error): completionHandler([], error)
      }
    }
  }

  /// As ``fetchStorePromotionOrder(completionHandler:)``.
  open func promotionOrder() async throws -> [SKProduct] {
    try StoreKitEnvironment.shared.promotionOrder()
  }

  /// Sets the order of the promoted products on the App Store page; fails with
  /// ``SKError/Code/storeProductNotAvailable`` if one is not sold (the order is then unchanged).
  open func update(storePromotionOrder: [SKProduct], completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
    let ids = storePromotionOrder.map(\.productIdentifier)
    let error = Self.failure { try StoreKitEnvironment.shared.setPromotionOrder(ids) }
    call(completionHandler, with: error)
  }

  /// As ``update(storePromotionOrder:completionHandler:)``.
  open func update(promotionOrder: [SKProduct]) async throws {
    try StoreKitEnvironment.shared.setPromotionOrder(promotionOrder.map(\.productIdentifier))
  }

  private static func failure(_ body: () throws -> Void) -> (any Error)? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  private func call(_ handler: (@Sendable ((any Error)?) -> Void)?, with error: (any Error)?) {
    guard let handler else { return }
    DispatchQueue.main.async { handler(error) }
  }
}
