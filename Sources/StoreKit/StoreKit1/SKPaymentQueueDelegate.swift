import Foundation

/// What the payment queue asks the app (`SKPaymentQueue.default().delegate`), on the main queue.
///
/// Both methods are optional in Apple's declaration (`@objc optional`); here the protocol extension
/// gives each Apple's default answer (true), so a conforming class implements only what it needs.
public protocol SKPaymentQueueDelegate: NSObjectProtocol {
  /// The storefront changed while `transaction` was in the queue: true lets it go on; false makes
  /// it fail with ``SKError/Code/storeProductNotAvailable``, as Apple documents.
  func paymentQueue(_ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction, in newStorefront: SKStorefront) -> Bool
  /// A price increase waits for the user's consent: true shows the consent sheet now; false defers
  /// it until the app calls `showPriceConsentIfNeeded()`.
  func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool
}

extension SKPaymentQueueDelegate {
  public func paymentQueue(
    _ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction, in newStorefront: SKStorefront
  ) -> Bool {
    true
  }
  public func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool { true }
}
