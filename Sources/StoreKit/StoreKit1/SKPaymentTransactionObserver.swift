import Foundation

/// What an app implements to hear the payment queue: every callback arrives on the main queue, in
/// the order the store made the changes, after they were committed to the ledger.
///
/// Every method but ``paymentQueue(_:updatedTransactions:)`` is optional in Apple's declaration
/// (`@objc optional`); here the protocol extension gives each one a default, so a conforming class
/// implements only what it needs, as on Apple's platforms.
public protocol SKPaymentTransactionObserver: NSObjectProtocol {
  /// Transactions were added to the queue or changed state.
  func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
  /// Transactions left the queue (after `finishTransaction(_:)`).
  func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction])
  /// A restore failed.
  func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error)
  /// A restore delivered every restorable transaction (possibly none).
  func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue)
  /// Hosted content changed state: never called, as the store has no hosted content.
  @available(*, deprecated, message: "Hosted content is no longer supported")
  func paymentQueue(_ queue: SKPaymentQueue, updatedDownloads downloads: [SKDownload])
  /// A purchase started on the App Store page: true adds it to the queue now; false defers it (the
  /// app adds `payment` itself later) or cancels it.
  func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool
  /// The account's storefront changed.
  func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue)
  /// Family members lost the entitlement to these family-shared products.
  func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
}

extension SKPaymentTransactionObserver {
  public func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {}
  public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {}
  public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {}
  @available(*, deprecated, message: "Hosted content is no longer supported")
  public func paymentQueue(_ queue: SKPaymentQueue, updatedDownloads downloads: [SKDownload]) {}
  public func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool {
    true
  }
  public func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {}
  public func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]) {}
}
