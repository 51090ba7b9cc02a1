import Foundation

/// One payment-queue callback, made from one engine event under the environment's lock and
/// delivered to the observers on the main queue.
enum QueueCallback: @unchecked Sendable {
  case updated([(SKPaymentTransaction, SKPaymentTransaction.Snapshot)])
  case removed([(SKPaymentTransaction, SKPaymentTransaction.Snapshot)])
  case restoreFinished
  case restoreFailed(any Error)
  case storefrontChanged
  case revoked([String])
  /// The delegate's `paymentQueue(_:shouldContinue:in:)`, for each payment in progress.
  case shouldContinue([(SKPaymentTransaction, SKPaymentTransaction.Snapshot)], SKStorefront)
  /// The delegate's `paymentQueueShouldShowPriceConsent(_:)`, for one subscription's increase.
  case shouldShowPriceConsent(UInt64)
  /// The observers' `paymentQueue(_:shouldAddStorePayment:for:)`: all must say yes.
  case storePayment(SKPayment, SKProduct)

  /// Brings the delivered transaction objects to the state this callback reports.
  func prepare() {
    switch self {
    case .updated(let list), .removed(let list):
      for (transaction, snapshot) in list { transaction.update(snapshot) }
    default: break
    }
  }

  func deliver(to observer: any SKPaymentTransactionObserver, queue: SKPaymentQueue) {
    switch self {
    case .updated(let list): observer.paymentQueue(queue, updatedTransactions: list.map(\.0))
    case .removed(let list): observer.paymentQueue(queue, removedTransactions: list.map(\.0))
    case .restoreFinished: observer.paymentQueueRestoreCompletedTransactionsFinished(queue)
    case .restoreFailed(let error): observer.paymentQueue(queue, restoreCompletedTransactionsFailedWithError: error)
    case .storefrontChanged: observer.paymentQueueDidChangeStorefront(queue)
    case .revoked(let products): observer.paymentQueue(queue, didRevokeEntitlementsForProductIdentifiers: products)
    case .shouldContinue, .shouldShowPriceConsent, .storePayment: break
    }
  }

  /// Asks the queue's question once (not per observer) and has the store act on the answer.
  /// Returns false for a callback that is not a question.
  func ask(_ queue: SKPaymentQueue, observers: [any SKPaymentTransactionObserver]) -> Bool {
    let environment = StoreKitEnvironment.shared
    switch self {
    case .shouldContinue(let list, let storefront):
      guard let delegate = queue.delegate else { return true }
      for (transaction, _) in list where !delegate.paymentQueue(queue, shouldContinue: transaction, in: storefront) {
        environment.discontinue(transaction)
      }
    case .shouldShowPriceConsent(let chain):
      environment.answerPriceConsent(chain, show: queue.delegate?.paymentQueueShouldShowPriceConsent(queue) ?? true)
    case .storePayment(let payment, let product):
      // Every observer is asked (as each would be on a device); one "no" keeps the payment out.
      let answers = observers.map { $0.paymentQueue(queue, shouldAddStorePayment: payment, for: product) }
      if !answers.contains(false) { environment.addStorePayment(payment.productIdentifier) }
    default:
      return false
    }
    return true
  }
}
