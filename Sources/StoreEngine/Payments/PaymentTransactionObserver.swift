/// An `SKPaymentTransactionObserver`: the callbacks an app's IAP code implements.
///
/// Observers are called synchronously, in the order they were added, after the change they describe
/// was committed to the ledger. Every method has a default that does nothing.
public protocol PaymentTransactionObserver: AnyObject {
  func updatedTransactions(_ transactions: [PaymentTransaction])
  func removedTransactions(_ transactions: [PaymentTransaction])
  func restoreCompletedTransactionsFinished()
  func restoreCompletedTransactionsFailed(with error: StoreKitError)
  /// Return true to add a payment started from the App Store page to the queue now.
  func shouldAddStorePayment(for product: Product.ID) -> Bool
}

extension PaymentTransactionObserver {
  public func updatedTransactions(_ transactions: [PaymentTransaction]) {}
  public func removedTransactions(_ transactions: [PaymentTransaction]) {}
  public func restoreCompletedTransactionsFinished() {}
  public func restoreCompletedTransactionsFailed(with error: StoreKitError) {}
  public func shouldAddStorePayment(for product: Product.ID) -> Bool { true }
}
