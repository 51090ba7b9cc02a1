import Foundation
import StoreKit
internal import StoreEngine

/// A transaction of the test environment, as Xcode's transaction manager lists it.
public struct SKTestTransaction: Hashable, Sendable {
  public let identifier: UInt
  public let originalTransactionIdentifier: UInt
  public let productIdentifier: String
  public let purchaseDate: Date
  public let expirationDate: Date?
  /// When it was refunded (`revocationDate`).
  public let cancelDate: Date?
  public let state: SKPaymentTransactionState
  public let quantity: Int
  /// For an auto-renewable subscription: whether its chain renews.
  public let autoRenewingEnabled: Bool
  /// An interrupted purchase, or a renewal in billing retry.
  public let hasPurchaseIssue: Bool
  public let isPendingPriceIncreaseConsent: Bool
  /// Waiting for a parent's Ask to Buy answer.
  public let pendingAskToBuyConfirmation: Bool
  /// Whether the app finished it.
  public let isFinished: Bool

  init(_ transaction: StoreEngine.PaymentTransaction, record: SubscriptionRecord?) {
    identifier = UInt(transaction.id.rawValue)
    originalTransactionIdentifier = UInt(transaction.originalID.rawValue)
    productIdentifier = transaction.productID.rawValue
    purchaseDate = transaction.purchaseDate
    expirationDate = transaction.expiresDate
    cancelDate = transaction.revocationDate
    state = SKPaymentTransactionState(rawValue: transaction.state.rawValue) ?? .failed
    quantity = transaction.quantity
    autoRenewingEnabled = record?.autoRenew ?? false
    hasPurchaseIssue = transaction.needsResolution || record?.status == .inBillingRetry || record?.status == .inGracePeriod
    isPendingPriceIncreaseConsent = record?.priceIncreasePending ?? false
    pendingAskToBuyConfirmation = transaction.state == .deferred
    isFinished = transaction.isFinished
  }
}
