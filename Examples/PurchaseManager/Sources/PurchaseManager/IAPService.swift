import StoreKit

/// Called with the products the App Store knows, or `false` when the request failed.
public typealias ProductsRequestCompletion = (_ success: Bool, _ products: [SKProduct]?) -> Void

/// What the app's screens need from in-app purchases.
@MainActor
public protocol IAPServiceType: AnyObject {
  var canMakePayments: Bool { get }

  func getProducts(completion: @escaping ProductsRequestCompletion)
  func buyProduct(_ product: SKProduct)
  func isProductPurchased(_ productID: String) -> Bool
  func restorePurchases()
}

/// A completion-handler purchase service over `SKPaymentQueue`: it loads products with an
/// `SKProductsRequest`, observes the queue, finishes every transaction it has handled, remembers what
/// was bought in `UserDefaults` and posts ``Foundation/Notification/Name/iapServicePurchaseNotification``
/// with the product id when a purchase or restore goes through.
@MainActor
public final class IAPService: NSObject, IAPServiceType {
  private let productIDs: Set<String>
  private let defaults: UserDefaults
  private var purchasedProductIDs: Set<String>
  private var productsRequest: SKProductsRequest?
  private var productsCompletion: ProductsRequestCompletion?
  /// The last failure that was not the user's own Cancel, for the screen to show.
  public private(set) var lastError: (any Error)?

  /// - Parameter defaults: where purchases are remembered (a suite per test keeps tests apart).
  public init(productIDs: Set<String>, defaults: UserDefaults = .standard) {
    self.productIDs = productIDs
    self.defaults = defaults
    purchasedProductIDs = productIDs.filter { defaults.bool(forKey: $0) }
    super.init()
    SKPaymentQueue.default().add(self)
  }

  /// Stops observing the queue (an app's service lives as long as the app; a test's does not).
  public func stop() {
    SKPaymentQueue.default().remove(self)
  }

  public var canMakePayments: Bool { SKPaymentQueue.canMakePayments() }

  public func getProducts(completion: @escaping ProductsRequestCompletion) {
    productsRequest?.cancel()
    productsCompletion = completion
    productsRequest = SKProductsRequest(productIdentifiers: productIDs)
    productsRequest?.delegate = self
    productsRequest?.start()
  }

  public func buyProduct(_ product: SKProduct) {
    SKPaymentQueue.default().add(SKPayment(product: product))
  }

  public func isProductPurchased(_ productID: String) -> Bool {
    purchasedProductIDs.contains(productID)
  }

  public func restorePurchases() {
    SKPaymentQueue.default().restoreCompletedTransactions()
  }

  private func clearRequestAndHandler() {
    productsRequest = nil
    productsCompletion = nil
  }

  private func handle(_ transactions: [SKPaymentTransaction], on queue: SKPaymentQueue) {
    for transaction in transactions {
      switch transaction.transactionState {
      case .purchased, .restored:
        deliverPurchaseNotification(for: transaction.payment.productIdentifier)
        queue.finishTransaction(transaction)
      case .failed:
        // The user's own Cancel is no error to show.
        if (transaction.error as? SKError)?.code != .paymentCancelled { lastError = transaction.error }
        queue.finishTransaction(transaction)
      case .deferred, .purchasing:
        break
      }
    }
  }

  private func deliverPurchaseNotification(for productID: String) {
    purchasedProductIDs.insert(productID)
    defaults.set(true, forKey: productID)
    NotificationCenter.default.post(name: .iapServicePurchaseNotification, object: productID)
  }
}

extension IAPService: SKProductsRequestDelegate {
  // StoreKit calls delegates on the main queue, so the service's main-actor state is safe to use.
  public nonisolated func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
    MainActor.assumeIsolated {
      productsCompletion?(true, response.products)
      clearRequestAndHandler()
    }
  }

  public nonisolated func request(_ request: SKRequest, didFailWithError error: any Error) {
    MainActor.assumeIsolated {
      lastError = error
      productsCompletion?(false, nil)
      clearRequestAndHandler()
    }
  }
}

extension IAPService: SKPaymentTransactionObserver {
  public nonisolated func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
    MainActor.assumeIsolated { handle(transactions, on: queue) }
  }
}
