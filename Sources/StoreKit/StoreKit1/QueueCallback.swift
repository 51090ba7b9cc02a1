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
    }
  }
}
