import Foundation

extension PaymentQueue {
  /// Changes sandbox controls at run time and announces the new values.
  public func updateControls(_ change: (inout SandboxControls) -> Void) {
    change(&controls)
    emit([.controlsChanged(controls)])
  }

  /// A purchase started from the App Store product page (a promoted in-app purchase): observers are
  /// asked `shouldAddStorePayment`; the payment is added when the answer is yes.
  /// - Returns: the new transaction's id, or nil when an observer answered no (the app adds the
  ///   payment itself later, as StoreKit expects).
  @discardableResult
  public func startStorePayment(_ product: Product.ID) throws(EngineError) -> PaymentTransaction.ID? {
    emit([.shouldAddStorePayment(product)])
    guard orderedObservers.allSatisfy({ $0.shouldAddStorePayment(for: product) }) else { return nil }
    return try add(Payment(productID: product))
  }
}
