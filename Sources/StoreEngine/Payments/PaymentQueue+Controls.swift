import Foundation

extension PaymentQueue {
  /// Changes sandbox controls at run time and announces the new values.
  public func updateControls(_ change: (inout SandboxControls) -> Void) {
    change(&controls)
    emit([.controlsChanged(controls)])
  }

  /// A purchase started from the App Store product page (a promoted in-app purchase): observers are
  /// asked `shouldAddStorePayment`; the payment is added when the answer is yes.
  @discardableResult
  public func startStorePayment(_ product: Product.ID) throws(EngineError) -> PaymentTransaction.ID? {
    emit([.shouldAddStorePayment(product)])
    return try add(Payment(productID: product))
  }
}
