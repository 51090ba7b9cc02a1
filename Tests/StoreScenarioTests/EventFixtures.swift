import Foundation
import StoreEngine

/// Events of every kind, with the fields each line can carry, for pinning the event lines.
enum EventFixtures {
  /// 2026-01-01T00:00:00Z, where `storefront run` starts on a fresh data directory.
  static let start = Date(timeIntervalSince1970: 1_767_225_600)
  static let later = start.addingTimeInterval(7 * 86_400 + 3_661)
  static let removeAds = Product.ID("com.jake.sample.ExInAppPurchase.shopping")
  static let coins = Product.ID("com.jake.sample.ExInAppPurchase.coins100")
  static let monthly = Product.ID("com.jake.sample.ExInAppPurchase.premium.monthly")
  /// Text that JSON must escape, or may leave alone: quotes, backslash, slash, controls, DEL,
  /// non-ASCII, an emoji with a skin tone and the line separator U+2028.
  static let awkward = "a\"b\\c/d\te\nf\u{1}g\u{7F}h é 한 👍🏽 \u{2028}"
  /// $2.97: a price whose decimal string is not a whole number.
  static let price = cents(297)

  /// An exact decimal price (a float literal would go through `Double`).
  static func cents(_ value: Int) -> Decimal { Decimal(sign: .plus, exponent: -2, significand: Decimal(value)) }

  static func id(_ value: UInt64) -> PaymentTransaction.ID { PaymentTransaction.ID(2_000_000_000_000_000 + value) }

  /// A purchase still on the sheet: no error, no signature, no dates but the purchase date.
  static var purchasing: PaymentTransaction {
    PaymentTransaction(
      id: id(1), account: "jake", productID: removeAds, productKind: .nonConsumable, purchaseDate: start, price: price)
  }

  /// A consumable bought three at a time, with an application username that needs escaping.
  static var purchased: PaymentTransaction {
    var transaction = PaymentTransaction(
      id: id(2), account: "jake", productID: coins, productKind: .consumable, state: .purchased, quantity: 3,
      applicationUsername: awkward, purchaseDate: start, price: price)
    transaction.signedTransaction = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMiJ9.c2lnbmF0dXJl_-"
    return transaction
  }

  /// A cancelled purchase: the error object, and no price for the transactions listing.
  static var failed: PaymentTransaction {
    var transaction = PaymentTransaction(
      id: id(3), account: "jake", productID: coins, productKind: .consumable, state: .failed, purchaseDate: start)
    transaction.error = .paymentCancelled
    return transaction
  }

  /// A subscription renewal: renewal info, an expiry, the renewal reason, finished.
  static var renewal: PaymentTransaction {
    var transaction = PaymentTransaction(
      id: id(5), originalID: id(4), account: "robin", productID: monthly, productKind: .autoRenewableSubscription,
      state: .purchased, purchaseDate: later, originalPurchaseDate: start, expiresDate: later.addingTimeInterval(30 * 86_400),
      price: cents(499), reason: .renewal)
    transaction.signedTransaction = "h.renewal.s"
    transaction.signedRenewalInfo = "h.info.s"
    transaction.isFinished = true
    return transaction
  }

  /// A refunded purchase: the revocation date.
  static var refunded: PaymentTransaction {
    var transaction = PaymentTransaction(
      id: id(6), account: "", productID: removeAds, productKind: .nonConsumable, state: .purchased, purchaseDate: start,
      price: cents(299))
    transaction.signedTransaction = "h.refunded.s"
    transaction.revocationDate = later
    transaction.revocationReason = 1
    transaction.isFinished = true
    return transaction
  }

  static var record: SubscriptionRecord {
    SubscriptionRecord(
      originalID: id(4), account: "robin", groupID: "21482456", productID: monthly, renewalProductID: monthly,
      autoRenew: false, status: .inBillingRetry, expiresDate: later, renewalCount: 1, gracePeriodExpiresDate: nil,
      expirationIntent: .billingError, priceIncreasePending: false, webOrderLineItemID: 7)
  }

  /// One event of every kind (some in several variants), each with when it happened and the
  /// scenario line that caused it (none for a launch).
  static var everyKind: [(name: String, event: StoreEvent, time: Date, line: Int?)] {
    [
      ("account signed in at launch", .accountChanged("jake"), start, nil),
      ("products response", .productsResponse(request: 1, products: [removeAds, coins], invalidIdentifiers: ["com.example/not.in.store", awkward]), start, 2),
      ("empty products response", .productsResponse(request: 2, products: [], invalidIdentifiers: []), start, 3),
      ("products request failed", .productsRequestFailed(request: 3, error: .serverUnknown), start, 4),
      ("store payment", .shouldAddStorePayment(removeAds), start, 5),
      ("purchasing", .transactionsUpdated([purchasing]), start, 6),
      ("confirm sheet", .promptPresented(.confirm(transaction: id(1), product: removeAds, quantity: 1, alreadyOwned: false, price: Money(price, currencyCode: "USD"))), start, 6),
      ("already purchased sheet", .promptPresented(.confirm(transaction: id(7), product: removeAds, quantity: 2, alreadyOwned: true, price: Money(0, currencyCode: "KRW"))), start, 7),
      ("sign-in sheet for a purchase", .promptPresented(.signIn(purpose: .purchase(id(1)))), start, 8),
      ("sign-in sheet for a restore", .promptPresented(.signIn(purpose: .restore)), start, 9),
      ("sheet dismissed", .promptDismissed, later, 10),
      ("purchased and failed in one batch", .transactionsUpdated([purchased, failed]), later, 11),
      ("finished", .transactionsRemoved([purchased]), later, 12),
      ("renewal", .transactionsUpdated([renewal]), later, 13),
      ("subscription status", .subscriptionChanged(record, reason: "billing retry"), later, 13),
      ("restore finished", .restoreFinished(restoredCount: 2), later, 14),
      ("restore failed", .restoreFailed(.cloudServiceNetworkConnectionFailed), later, 15),
      ("refund", .transactionRevoked(refunded), later, 16),
      ("finishing twice", .misuse(.alreadyFinished(id(2))), later, 17),
      ("unknown transaction", .misuse(.unknownTransaction(awkward)), later, 18),
      ("history cleared", .historyCleared(account: "robin"), later, 19),
      ("signed out", .accountChanged(nil), later, 20),
      ("empty batch", .transactionsUpdated([]), later, 21),
      ("amended", .transactionsAmended([renewal]), later, 22),
      ("controls", .controlsChanged(SandboxControls()), later, 23),
      ("clock", .clockAdvanced(later), later, 24),
      ("refund request granted", .refundRequestFinished(id(6), .success), later, 25),
      ("refund request failed", .refundRequestFinished(id(6), .failed(.duplicateRefundRequest)), later, 26),
    ]
  }
}
