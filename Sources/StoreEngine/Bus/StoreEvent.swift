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
  /// The app's refund sheet closed with this result (`Transaction.beginRefundRequest` returned
  /// or threw). A granted refund follows as ``transactionRevoked(_:)``.
  case refundRequestFinished(PaymentTransaction.ID, RefundRequestResult)
  /// A transaction was refunded or revoked (StoreKit 2 `Transaction.updates`).
  case transactionRevoked(PaymentTransaction)
  /// A subscription chain's record changed (its status, auto-renew, renewal product, price
  /// increase, …): the whole record as it is now, and why.
  case subscriptionChanged(SubscriptionRecord, reason: String)
  /// Transactions changed in the ledger with no StoreKit callback: an upgraded old period, a period
  /// cut short by Expire or Renew, or another process's change. Front ends update their rows.
  case transactionsAmended([PaymentTransaction])
  /// Transactions of this app's queue that another process (or host) moved into a state this
  /// process did not have them in, unfinished and past the sheet: an Ask to Buy approved, a renewal
  /// another process's clock made, a purchase another process completed. An app whose store is
  /// attached to a storefront hears them as updated transactions, as StoreKit reports them.
  case transactionsChangedElsewhere([PaymentTransaction])
  /// Every transaction and subscription record of the account was removed ("Clear Purchase History").
  case historyCleared(account: String)
  /// The parent answered an Ask to Buy request. Not a StoreKit callback: a decline reaches the app
  /// as nothing at all, an approval as the purchase's `transactionsUpdated` that follows.
  case askToBuyAnswered(AskToBuyRequest, approved: Bool)
  /// The storefront changed (`paymentQueueDidChangeStorefront(_:)`, StoreKit 2 `Storefront.updates`).
  case storefrontChanged(String)
  /// A transaction was deleted from the history (`SKTestSession.deleteTransaction`).
  case transactionDeleted(PaymentTransaction)
  /// The virtual clock moved.
  case clockAdvanced(Date)
  /// The store sells another catalog from now on (``StoreCommand/sellCatalog(_:)``). Not a
  /// StoreKit callback: an app learns of new products when it asks for them.
  case catalogChanged(Catalog)
  /// A notification for the app's server was committed to the outbox (App Store Server Notifications
  /// V2); delivery follows, by the process that serves.
  case notificationQueued(ServerNotification)
  /// A problem no command threw, such as an abandoned purchase a launch could not claim because
  /// the ledger failed (it is tried again at the next launch). Refused commands are thrown, not posted.
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
