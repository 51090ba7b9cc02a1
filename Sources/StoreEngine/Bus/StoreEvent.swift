import Foundation

/// Everything the engine announces, in the order it happened. Every StoreKit observer callback is
/// one of these; so is every change a UI must reflect.
public enum StoreEvent: Sendable, Equatable {
  /// `productsRequest(_:didReceive:)`.
  case productsResponse(request: Int, products: [Product.ID], invalidIdentifiers: [String])
  /// `request(_:didFailWithError:)`.
  case productsRequestFailed(request: Int, error: StoreKitError)
  /// `paymentQueue(_:updatedTransactions:)`.
  case transactionsUpdated([PaymentTransaction])
  /// `paymentQueue(_:removedTransactions:)`, after `finishTransaction`.
  case transactionsRemoved([PaymentTransaction])
  /// `paymentQueueRestoreCompletedTransactionsFinished(_:)`.
  case restoreFinished(restoredCount: Int)
  /// `paymentQueue(_:restoreCompletedTransactionsFailedWithError:)`.
  case restoreFailed(StoreKitError)
  /// `paymentQueue(_:shouldAddStorePayment:for:)`: a purchase started from the App Store page.
  case shouldAddStorePayment(Product.ID)
  /// A purchase or sign-in sheet appeared.
  case promptPresented(PurchasePrompt)
  /// The sheet went away (confirmed, cancelled or signed in).
  case promptDismissed
  /// A sandbox account signed in (name) or out (nil).
  case accountChanged(String?)
  /// A sandbox control changed.
  case controlsChanged(SandboxControls)
  /// A transaction was refunded or revoked (StoreKit 2 `Transaction.updates`).
  case transactionRevoked(PaymentTransaction)
  /// A subscription's status changed (subscribed, inBillingRetry, inGracePeriod, expired, revoked).
  case subscriptionStatusChanged(product: Product.ID, original: PaymentTransaction.ID, status: SubscriptionStatus, reason: String)
  /// The virtual clock moved.
  case clockAdvanced(Date)
  /// The app misused the API (finishing twice, …); StoreKit would log or throw.
  case misuse(EngineError)
}

/// The status of one auto-renewable subscription (StoreKit 2 `RenewalState`).
public enum SubscriptionStatus: String, Sendable, Equatable, Codable {
  case subscribed
  case inBillingRetry
  case inGracePeriod
  case expired
  case revoked
}
