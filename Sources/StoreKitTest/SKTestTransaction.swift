import Foundation
import StoreKit
internal import StoreEngine

/// A transaction of the test environment, as Xcode's transaction manager lists it: a snapshot made
/// by ``SKTestSession/allTransactions()``. Two snapshots of the same transaction in the same state
/// are equal.
open class SKTestTransaction: NSObject, @unchecked Sendable {
  open var identifier: UInt { storedIdentifier }
  open var originalTransactionIdentifier: UInt { storedOriginal }
  open var productIdentifier: String { storedProduct }
  open var purchaseDate: Date { storedPurchaseDate }
  open var expirationDate: Date? { storedExpiration }
  /// When it was refunded (`revocationDate`).
  open var cancelDate: Date? { storedCancelDate }
  open var state: SKPaymentTransactionState { storedState }
  /// For an auto-renewable subscription: whether its chain renews.
  open var autoRenewingEnabled: Bool { storedAutoRenewing }
  /// An interrupted purchase, or a renewal in billing retry.
  open var hasPurchaseIssue: Bool { storedPurchaseIssue }
  open var isPendingPriceIncreaseConsent: Bool { storedPriceIncrease }
  /// Waiting for a parent's Ask to Buy answer.
  open var pendingAskToBuyConfirmation: Bool { storedAskToBuy }
  /// How many units (beyond Apple: its transaction manager shows it, its class does not).
  public let quantity: Int
  /// Whether the app finished it (beyond Apple).
  public let isFinished: Bool

  private let storedIdentifier: UInt
  private let storedOriginal: UInt
  private let storedProduct: String
  private let storedPurchaseDate: Date
  private let storedExpiration: Date?
  private let storedCancelDate: Date?
  private let storedState: SKPaymentTransactionState
  private let storedAutoRenewing: Bool
  private let storedPurchaseIssue: Bool
  private let storedPriceIncrease: Bool
  private let storedAskToBuy: Bool

  override open func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? SKTestTransaction else { return false }
    return fields == other.fields
  }

  override open var hash: Int { fields.hashValue }

  private var fields: Fields {
    Fields(
      identifier: identifier, original: originalTransactionIdentifier, product: productIdentifier, purchaseDate: purchaseDate,
      expiration: expirationDate, cancel: cancelDate, state: state.rawValue, quantity: quantity, autoRenewing: autoRenewingEnabled,
      purchaseIssue: hasPurchaseIssue, priceIncrease: isPendingPriceIncreaseConsent, askToBuy: pendingAskToBuyConfirmation,
      finished: isFinished)
  }

  private struct Fields: Hashable {
    var identifier: UInt, original: UInt, product: String, purchaseDate: Date, expiration: Date?, cancel: Date?
    var state: Int, quantity: Int, autoRenewing: Bool, purchaseIssue: Bool, priceIncrease: Bool, askToBuy: Bool
    var finished: Bool
  }

  init(_ transaction: StoreEngine.PaymentTransaction, record: SubscriptionRecord?) {
    storedIdentifier = UInt(transaction.id.rawValue)
    storedOriginal = UInt(transaction.originalID.rawValue)
    storedProduct = transaction.productID.rawValue
    storedPurchaseDate = transaction.purchaseDate
    storedExpiration = transaction.expiresDate
    storedCancelDate = transaction.revocationDate
    storedState = SKPaymentTransactionState(rawValue: transaction.state.rawValue) ?? .failed
    quantity = transaction.quantity
    storedAutoRenewing = record?.autoRenew ?? false
    storedPurchaseIssue = transaction.needsResolution || record?.status == .inBillingRetry || record?.status == .inGracePeriod
    storedPriceIncrease = record?.priceIncreasePending ?? false
    storedAskToBuy = transaction.state == .deferred
    isFinished = transaction.isFinished
    super.init()
  }
}
