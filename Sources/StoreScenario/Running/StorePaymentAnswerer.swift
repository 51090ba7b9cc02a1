import StoreEngine

/// The scenario's app answering `shouldAddStorePayment`: yes unless the line says otherwise.
final class StorePaymentAnswerer: PaymentTransactionObserver {
  var addsPayments = true

  func shouldAddStorePayment(for product: Product.ID) -> Bool { addsPayments }
}
