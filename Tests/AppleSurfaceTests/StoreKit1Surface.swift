// Apple's StoreKit 1, named with Apple's signatures (declarations/storekit1.txt): the payment queue,
// its delegate and observer, payments, transactions and requests. Products, errors, hosted content and
// the test doubles are in StoreKit1SurfaceProducts.swift, StoreKit1SurfaceErrors.swift and
// StoreKit1SurfaceDoubles.swift.
import Foundation
import StoreKit
import XCTest

/// Compiled, never called: each line type-checks one declaration against Apple's signature.
func storeKit1QueueSurface(_ queue: SKPaymentQueue, _ transaction: SKPaymentTransaction, _ product: SKProduct) {
  // decl: SKPaymentQueue
  let _: NSObject = queue
  let _: any Sendable = queue
  let _: SKPaymentQueue = SKPaymentQueue()
  // decl: SKPaymentQueue.delegate
  let _: ReferenceWritableKeyPath<SKPaymentQueue, (any SKPaymentQueueDelegate)?> = \.delegate
  // decl: SKPaymentQueue.storefront
  let _: KeyPath<SKPaymentQueue, SKStorefront?> = \.storefront
  // decl: SKPaymentQueue.default()
  let _: () -> SKPaymentQueue = SKPaymentQueue.default
  // decl: SKPaymentQueue.canMakePayments()
  let _: () -> Bool = SKPaymentQueue.canMakePayments
  // decl: SKPaymentQueue.add(_: SKPayment)
  let _: (SKPaymentQueue) -> (SKPayment) -> Void = SKPaymentQueue.add
  // decl: SKPaymentQueue.add(_: SKPaymentTransactionObserver)
  let _: (SKPaymentQueue) -> (any SKPaymentTransactionObserver) -> Void = SKPaymentQueue.add
  // decl: SKPaymentQueue.remove(_:)
  let _: (SKPaymentQueue) -> (any SKPaymentTransactionObserver) -> Void = SKPaymentQueue.remove
  // decl: SKPaymentQueue.restoreCompletedTransactions()
  let _: (SKPaymentQueue) -> () -> Void = SKPaymentQueue.restoreCompletedTransactions
  // decl: SKPaymentQueue.restoreCompletedTransactions(withApplicationUsername:)
  let _: (SKPaymentQueue) -> (String?) -> Void = SKPaymentQueue.restoreCompletedTransactions(withApplicationUsername:)
  // decl: SKPaymentQueue.finishTransaction(_:)
  let _: (SKPaymentQueue) -> (SKPaymentTransaction) -> Void = SKPaymentQueue.finishTransaction
  let _: (SKPaymentTransaction) -> Void = queue.finishTransaction
  // decl: SKPaymentQueue.transactionObservers
  let _: KeyPath<SKPaymentQueue, [any SKPaymentTransactionObserver]> = \.transactionObservers
  // decl: SKPaymentQueue.transactions
  let _: KeyPath<SKPaymentQueue, [SKPaymentTransaction]> = \.transactions
  // decl: SKPaymentQueue.showPriceConsentIfNeeded()
  let _: (SKPaymentQueue) -> () -> Void = SKPaymentQueue.showPriceConsentIfNeeded
  // decl: SKPaymentQueue.presentCodeRedemptionSheet()
  let _: (SKPaymentQueue) -> () -> Void = SKPaymentQueue.presentCodeRedemptionSheet

  // decl: SKPaymentQueueDelegate
  let _: (any SKPaymentQueueDelegate)? = queue.delegate
  // decl: SKPaymentQueueDelegate.paymentQueue(_:shouldContinue:in:)
  // decl: SKPaymentQueueDelegate.paymentQueueShouldShowPriceConsent(_:)
  let delegate: any SKPaymentQueueDelegate = SurfaceQueueDelegate()
  let _: Bool = delegate.paymentQueue(queue, shouldContinue: transaction, in: SKStorefront())
  let _: Bool = delegate.paymentQueueShouldShowPriceConsent(queue)

  // decl: SKPaymentTransactionObserver
  let observer: any SKPaymentTransactionObserver = SurfaceObserver()
  let _: any NSObjectProtocol = observer
  // decl: SKPaymentTransactionObserver.paymentQueue(_:updatedTransactions:)
  observer.paymentQueue(queue, updatedTransactions: [transaction])
  // decl: SKPaymentTransactionObserver.paymentQueue(_:removedTransactions:)
  observer.paymentQueue(queue, removedTransactions: [transaction])
  // decl: SKPaymentTransactionObserver.paymentQueue(_:restoreCompletedTransactionsFailedWithError:)
  observer.paymentQueue(queue, restoreCompletedTransactionsFailedWithError: SKError(.unknown))
  // decl: SKPaymentTransactionObserver.paymentQueueRestoreCompletedTransactionsFinished(_:)
  observer.paymentQueueRestoreCompletedTransactionsFinished(queue)
  // decl: SKPaymentTransactionObserver.paymentQueue(_:shouldAddStorePayment:for:)
  let _: Bool = observer.paymentQueue(queue, shouldAddStorePayment: SKPayment(product: product), for: product)
  // decl: SKPaymentTransactionObserver.paymentQueueDidChangeStorefront(_:)
  observer.paymentQueueDidChangeStorefront(queue)
  // decl: SKPaymentTransactionObserver.paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)
  observer.paymentQueue(queue, didRevokeEntitlementsForProductIdentifiers: ["id"])

  // decl: SKPaymentTransaction
  let _: NSObject = transaction
  let _: SKPaymentTransaction = SKPaymentTransaction()
  // decl: SKPaymentTransaction.error
  let _: KeyPath<SKPaymentTransaction, (any Error)?> = \.error
  // decl: SKPaymentTransaction.original
  let _: KeyPath<SKPaymentTransaction, SKPaymentTransaction?> = \.original
  // decl: SKPaymentTransaction.payment
  let _: KeyPath<SKPaymentTransaction, SKPayment> = \.payment
  // decl: SKPaymentTransaction.transactionDate
  let _: KeyPath<SKPaymentTransaction, Date?> = \.transactionDate
  // decl: SKPaymentTransaction.transactionIdentifier
  let _: KeyPath<SKPaymentTransaction, String?> = \.transactionIdentifier
  // decl: SKPaymentTransaction.transactionState
  let _: KeyPath<SKPaymentTransaction, SKPaymentTransactionState> = \.transactionState

  // decl: SKPaymentTransactionState
  let _: Int = SKPaymentTransactionState.purchasing.rawValue
  let _: SKPaymentTransactionState? = SKPaymentTransactionState(rawValue: 4)
  // decl: SKPaymentTransactionState.purchasing
  // decl: SKPaymentTransactionState.purchased
  // decl: SKPaymentTransactionState.failed
  // decl: SKPaymentTransactionState.restored
  // decl: SKPaymentTransactionState.deferred
  let _: [SKPaymentTransactionState] = [.purchasing, .purchased, .failed, .restored, .deferred]
}

/// Compiled, never called: payments and the payment discount.
func storeKit1PaymentSurface(_ product: SKProduct) {
  // decl: SKPayment
  let payment: SKPayment = SKPayment()
  let _: NSObject = payment
  let _: any NSCopying = payment
  let _: any NSMutableCopying = payment
  // decl: SKPayment.init(product:)
  let _: (SKProduct) -> SKPayment = SKPayment.init(product:)
  // decl: SKPayment.productIdentifier
  let _: KeyPath<SKPayment, String> = \.productIdentifier
  // decl: SKPayment.requestData
  let _: KeyPath<SKPayment, Data?> = \.requestData
  // decl: SKPayment.quantity
  let _: KeyPath<SKPayment, Int> = \.quantity
  // decl: SKPayment.applicationUsername
  let _: KeyPath<SKPayment, String?> = \.applicationUsername
  // decl: SKPayment.simulatesAskToBuyInSandbox
  let _: KeyPath<SKPayment, Bool> = \.simulatesAskToBuyInSandbox
  // decl: SKPayment.paymentDiscount
  let _: KeyPath<SKPayment, SKPaymentDiscount?> = \.paymentDiscount
  // decl: SKPayment.copy(with:)
  let _: Any = payment.copy(with: nil)
  let _: Any = payment.copy()
  // decl: SKPayment.mutableCopy(with:)
  let _: Any = payment.mutableCopy(with: nil)

  // decl: SKMutablePayment
  let mutable: SKMutablePayment = SKMutablePayment()
  let _: SKPayment = mutable
  let _: SKMutablePayment = SKMutablePayment(product: product)
  // decl: SKMutablePayment.productIdentifier
  mutable.productIdentifier = "id"
  // decl: SKMutablePayment.requestData
  mutable.requestData = Data?.none
  // decl: SKMutablePayment.quantity
  mutable.quantity = 2
  // decl: SKMutablePayment.applicationUsername
  mutable.applicationUsername = String?.none
  // decl: SKMutablePayment.simulatesAskToBuyInSandbox
  mutable.simulatesAskToBuyInSandbox = true
  // decl: SKMutablePayment.paymentDiscount
  mutable.paymentDiscount = SKPaymentDiscount?.none

  // decl: SKPaymentDiscount
  let _: NSObject = SKPaymentDiscount()
  // decl: SKPaymentDiscount.init(identifier:keyIdentifier:nonce:signature:timestamp:)
  let discount = SKPaymentDiscount(identifier: "offer", keyIdentifier: "KEY", nonce: UUID(), signature: "sig", timestamp: NSNumber(value: 0))
  // decl: SKPaymentDiscount.identifier
  let _: String = discount.identifier
  // decl: SKPaymentDiscount.keyIdentifier
  let _: String = discount.keyIdentifier
  // decl: SKPaymentDiscount.nonce
  let _: UUID = discount.nonce
  // decl: SKPaymentDiscount.signature
  let _: String = discount.signature
  // decl: SKPaymentDiscount.timestamp
  let _: NSNumber = discount.timestamp
}

/// Compiled, never called: requests and their delegates, the storefront, the receipt.
func storeKit1RequestSurface() {
  // decl: SKRequest
  let request: SKRequest = SKRequest()
  let _: NSObject = request
  // decl: SKRequest.delegate
  let _: ReferenceWritableKeyPath<SKRequest, (any SKRequestDelegate)?> = \.delegate
  // decl: SKRequest.cancel()
  let _: (SKRequest) -> () -> Void = SKRequest.cancel
  // decl: SKRequest.start()
  let _: (SKRequest) -> () -> Void = SKRequest.start
  // decl: SKRequestDelegate
  let requestDelegate: any SKRequestDelegate = SurfaceProductsDelegate()
  let _: any NSObjectProtocol = requestDelegate
  // decl: SKRequestDelegate.requestDidFinish(_:)
  requestDelegate.requestDidFinish(request)
  // decl: SKRequestDelegate.request(_:didFailWithError:)
  requestDelegate.request(request, didFailWithError: SKError(.unknown))

  // decl: SKProductsRequest
  // decl: SKProductsRequest.init(productIdentifiers:)
  let productsRequest: SKProductsRequest = SKProductsRequest(productIdentifiers: Set<String>())
  let _: SKRequest = productsRequest
  // decl: SKProductsRequest.delegate
  let _: ReferenceWritableKeyPath<SKProductsRequest, (any SKProductsRequestDelegate)?> = \.delegate
  productsRequest.delegate?.productsRequest(productsRequest, didReceive: SKProductsResponse())
  // decl: SKProductsRequestDelegate
  let productsDelegate: any SKProductsRequestDelegate = SurfaceProductsDelegate()
  let _: any SKRequestDelegate = productsDelegate
  // decl: SKProductsRequestDelegate.productsRequest(_:didReceive:)
  productsDelegate.productsRequest(productsRequest, didReceive: SKProductsResponse())
  // decl: SKProductsResponse
  let response: SKProductsResponse = SKProductsResponse()
  let _: NSObject = response
  // decl: SKProductsResponse.products
  let _: [SKProduct] = response.products
  // decl: SKProductsResponse.invalidProductIdentifiers
  let _: [String] = response.invalidProductIdentifiers

  // decl: SKReceiptRefreshRequest
  let _: SKRequest = SKReceiptRefreshRequest()
  // decl: SKReceiptRefreshRequest.init(receiptProperties:)
  let refresh = SKReceiptRefreshRequest(receiptProperties: [String: Any]?.none)
  // decl: SKReceiptRefreshRequest.receiptProperties
  let _: [String: Any]? = refresh.receiptProperties
  // decl: SKReceiptPropertyIsExpired
  // decl: SKReceiptPropertyIsRevoked
  // decl: SKReceiptPropertyIsVolumePurchase
  let _: [String] = [SKReceiptPropertyIsExpired, SKReceiptPropertyIsRevoked, SKReceiptPropertyIsVolumePurchase]
  // decl: SKTerminateForInvalidReceipt()
  let _: () -> Void = SKTerminateForInvalidReceipt

  // decl: SKStorefront
  let storefront: SKStorefront = SKStorefront()
  let _: NSObject = storefront
  // decl: SKStorefront.countryCode
  let _: String = storefront.countryCode
  // decl: SKStorefront.identifier
  let _: String = storefront.identifier
}

/// An observer as an app writes one: only `updatedTransactions` is required.
final class SurfaceObserver: NSObject, SKPaymentTransactionObserver {
  func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {}
}

/// A queue delegate as an app writes one.
final class SurfaceQueueDelegate: NSObject, SKPaymentQueueDelegate {
  func paymentQueue(_ paymentQueue: SKPaymentQueue, shouldContinue transaction: SKPaymentTransaction, in newStorefront: SKStorefront) -> Bool {
    true
  }
  func paymentQueueShouldShowPriceConsent(_ paymentQueue: SKPaymentQueue) -> Bool { true }
}

/// A products delegate as an app writes one.
final class SurfaceProductsDelegate: NSObject, SKProductsRequestDelegate {
  func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {}
  func requestDidFinish(_ request: SKRequest) {}
  func request(_ request: SKRequest, didFailWithError error: Error) {}
}
