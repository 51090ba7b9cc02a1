import StoreKit

/// What ``IAPManager`` tells its delegate. Every method is optional (a default does nothing), as the
/// `@objc optional` methods of such delegates are on Apple's platforms.
@MainActor
public protocol IAPManagerDelegate: AnyObject {
  /// A purchase went through (and was finished).
  func iapManagerDidFinishPurchase(_ productIdentifier: String)
  /// The store is asking the user (the purchase is `purchasing`).
  func iapManagerDidStartPurchase()
  /// A restore delivered these products.
  func iapManagerDidFinishRestore(_ productIdentifiers: [String])
  /// A restore found nothing to restore.
  func iapManagerDidFailRestoreNeverPurchased()
  /// A restore failed.
  func iapManagerDidFailRestore(_ error: any Error)
  /// A purchase failed (or the user cancelled: `code == .paymentCancelled`).
  func iapManagerDidFailPurchase(_ code: SKError.Code)
  /// A purchase waits for a parent's approval (Ask to Buy).
  func iapManagerDidDeferPurchase()
}

extension IAPManagerDelegate {
  public func iapManagerDidFinishPurchase(_ productIdentifier: String) {}
  public func iapManagerDidStartPurchase() {}
  public func iapManagerDidFinishRestore(_ productIdentifiers: [String]) {}
  public func iapManagerDidFailRestoreNeverPurchased() {}
  public func iapManagerDidFailRestore(_ error: any Error) {}
  public func iapManagerDidFailPurchase(_ code: SKError.Code) {}
  public func iapManagerDidDeferPurchase() {}
}

/// A singleton for non-consumables: buy by identifier, restore, one purchase and one restore at a
/// time, outcomes through a delegate. The app adds it to the payment queue at launch:
///
/// ```swift
/// SKPaymentQueue.default().add(IAPManager.shared)
/// ```
@MainActor
public final class IAPManager: NSObject {
  public static let shared = IAPManager()

  public weak var delegate: (any IAPManagerDelegate)?
  public private(set) var isBuying = false
  public private(set) var isRestoring = false
  private var restoredIdentifiers: [String] = []
  private var pendingRequest: SKProductsRequest?
  private var productsCompletion: (([SKProduct]) -> Void)?

  private override init() {}

  public class var canMakePayments: Bool { SKPaymentQueue.canMakePayments() }

  /// Asks the App Store for these products; `completion` gets those it sells.
  public func validateProductIdentifiers(_ productIdentifiers: [String], completion: @escaping ([SKProduct]) -> Void) {
    let request = SKProductsRequest(productIdentifiers: Set(productIdentifiers))
    productsCompletion = completion
    pendingRequest = request
    request.delegate = self
    request.start()
  }

  /// Buys the product with this identifier (ignored while another purchase is in progress).
  public func buy(productIdentifier: String) {
    guard !isBuying else { return }
    isBuying = true
    validateProductIdentifiers([productIdentifier]) { [weak self] products in
      guard let self else { return }
      guard let product = products.first(where: { $0.productIdentifier == productIdentifier }) else {
        isBuying = false
        delegate?.iapManagerDidFailPurchase(.storeProductNotAvailable)
        return
      }
      SKPaymentQueue.default().add(SKMutablePayment(product: product))
    }
  }

  /// Restores earlier purchases (ignored while a restore is in progress).
  public func restore() {
    guard !isRestoring else { return }
    isRestoring = true
    restoredIdentifiers = []
    SKPaymentQueue.default().restoreCompletedTransactions()
  }

  /// Forgets a purchase or restore in progress (a test starts from a clean manager).
  public func reset() {
    isBuying = false
    isRestoring = false
    restoredIdentifiers = []
  }

  private func handle(_ transactions: [SKPaymentTransaction], on queue: SKPaymentQueue) {
    for transaction in transactions {
      switch transaction.transactionState {
      case .purchasing:
        delegate?.iapManagerDidStartPurchase()
      case .purchased:
        isBuying = false
        queue.finishTransaction(transaction)
        delegate?.iapManagerDidFinishPurchase(transaction.payment.productIdentifier)
      case .restored:
        restoredIdentifiers.append(transaction.payment.productIdentifier)
        queue.finishTransaction(transaction)
      case .failed:
        isBuying = false
        queue.finishTransaction(transaction)
        delegate?.iapManagerDidFailPurchase((transaction.error as? SKError)?.code ?? .unknown)
      case .deferred:
        // Not finished: the parent's answer arrives later as purchased.
        isBuying = false
        delegate?.iapManagerDidDeferPurchase()
      }
    }
  }

  private func restoreFinished() {
    isRestoring = false
    if restoredIdentifiers.isEmpty {
      delegate?.iapManagerDidFailRestoreNeverPurchased()
    } else {
      delegate?.iapManagerDidFinishRestore(restoredIdentifiers)
    }
  }
}

extension IAPManager: SKPaymentTransactionObserver {
  public nonisolated func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
    MainActor.assumeIsolated { handle(transactions, on: queue) }
  }

  public nonisolated func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
    MainActor.assumeIsolated { restoreFinished() }
  }

  public nonisolated func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
    MainActor.assumeIsolated {
      isRestoring = false
      delegate?.iapManagerDidFailRestore(error)
    }
  }

  public nonisolated func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool {
    true
  }
}

extension IAPManager: SKProductsRequestDelegate {
  public nonisolated func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
    MainActor.assumeIsolated {
      let completion = productsCompletion
      productsCompletion = nil
      pendingRequest = nil
      completion?(response.products)
    }
  }

  public nonisolated func request(_ request: SKRequest, didFailWithError error: any Error) {
    MainActor.assumeIsolated {
      productsCompletion = nil
      pendingRequest = nil
      isBuying = false
      delegate?.iapManagerDidFailPurchase((error as? SKError)?.code ?? .unknown)
    }
  }
}
