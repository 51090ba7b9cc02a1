import AppReceipt
import Foundation
import StoreEngine
import XCTest

/// Apple's rules for which transactions an app receipt lists, on ledger values (no OpenSSL).
final class ReceiptInclusionTests: XCTestCase {
  static let day: TimeInterval = 86_400
  static let start = Date(timeIntervalSince1970: 1_767_225_600)

  static func transaction(
    _ id: UInt64, _ kind: ProductKind, state: TransactionState = .purchased, finished: Bool = false, original: UInt64? = nil,
    product: String? = nil, at offset: TimeInterval = 0
  ) -> PaymentTransaction {
    var transaction = PaymentTransaction(
      id: .init(id), originalID: original.map { .init($0) }, account: "tester", productID: Product.ID(product ?? "product.\(kind)"),
      productKind: kind, state: state, purchaseDate: start.addingTimeInterval(offset))
    transaction.isFinished = finished
    if kind == .autoRenewableSubscription {
      transaction.expiresDate = start.addingTimeInterval(offset + day)
      transaction.webOrderLineItemID = 9_000 + id
    }
    return transaction
  }

  func test_consumablesOnlyUntilFinished_othersAlways_onlyCharged() {
    let history = [
      Self.transaction(1, .consumable, finished: true),
      Self.transaction(2, .consumable),
      Self.transaction(3, .nonConsumable, finished: true),
      Self.transaction(4, .nonConsumable, finished: true, original: 3, at: 10),
      Self.transaction(5, .autoRenewableSubscription, finished: true),
      Self.transaction(6, .autoRenewableSubscription, finished: true, original: 5, at: Self.day),
      Self.transaction(7, .nonRenewingSubscription, finished: true),
      Self.transaction(8, .consumable, state: .failed),
      Self.transaction(9, .nonConsumable, state: .deferred, product: "other"),
      Self.transaction(10, .nonConsumable, state: .restored, original: 3),
    ]
    let listed = ReceiptInclusion.inAppPurchases(of: history).map(\.transactionID)
    XCTAssertEqual(listed, ["2", "3", "5", "6", "7"])
  }

  func test_aRefundKeepsTheEntryWithItsCancellationDate_andSubscriptionsCarryTheirFields() throws {
    var refunded = Self.transaction(3, .nonConsumable, finished: true)
    refunded.revocationDate = Self.start.addingTimeInterval(60)
    var trial = Self.transaction(5, .autoRenewableSubscription)
    trial.offerType = .introductory
    trial.offerPaymentMode = .freeTrial
    let entries = ReceiptInclusion.inAppPurchases(of: [refunded, trial])
    XCTAssertEqual(entries.first?.cancellationDate, Self.start.addingTimeInterval(60))
    let subscription = try XCTUnwrap(entries.last)
    XCTAssertEqual(subscription.webOrderLineItemID, 9_005)
    XCTAssertEqual(subscription.expiresDate, Self.start.addingTimeInterval(Self.day))
    XCTAssertEqual(subscription.isTrialPeriod, true)
    XCTAssertEqual(subscription.isInIntroOfferPeriod, false)
    XCTAssertNil(entries.first?.webOrderLineItemID)
  }

  func test_attributesCarryApplesTypeNumbers() {
    let entry = InAppPurchaseReceipt(Self.transaction(5, .autoRenewableSubscription))
    XCTAssertEqual(entry.attributes.map(\.type), [1701, 1702, 1703, 1704, 1705, 1706, 1708, 1711, 1713, 1719])
    XCTAssertEqual(InAppPurchaseReceipt(attributes: entry.attributes), entry)
  }
}
