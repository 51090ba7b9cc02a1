import Foundation
import StoreEngine
import XCTest

@testable import AppReceipt

/// A receipt's history read from the ledger a page at a time is the one gathered from the whole
/// history at once, across page boundaries (a non-consumable's re-download pages after its purchase).
final class ReceiptHistoryTests: XCTestCase {
  func testPagedReadEqualsTheWholeHistory() throws {
    let ledger = InMemoryLedgerStore()
    let kinds: [ProductKind] = [.consumable, .nonConsumable, .autoRenewableSubscription, .nonRenewingSubscription]
    var history: [PaymentTransaction] = []
    for index in 0..<(ReceiptHistory.pageSize * 2 + 17) {
      let kind = kinds[index % kinds.count]
      var transaction = ReceiptInclusionTests.transaction(
        UInt64(1_000 + index), kind, finished: index % 3 == 0, original: kind == .nonConsumable ? 1_001 : nil,
        at: Double(index))
      if index % 7 == 0 { transaction.state = .failed }
      if index % 11 == 0 { transaction.revocationDate = ReceiptInclusionTests.start.addingTimeInterval(Double(index) + 0.5) }
      if index % 13 == 0 { transaction.subscriptionGroupID = "group" }
      history.append(transaction)
    }
    try ledger.commit(history.map { .putTransaction($0) })
    let paged = try ReceiptHistory.read(account: "tester", from: ledger)
    XCTAssertEqual(paged, ReceiptHistory(history))
    XCTAssertEqual(paged.inAppPurchases, ReceiptInclusion.inAppPurchases(of: history))
    XCTAssertEqual(paged.hasAutoRenewable, ReceiptInclusion.hasAutoRenewable(history))
    XCTAssertEqual(paged.inAppPurchases.filter { $0.productID == "product.nonConsumable" }.count, 1, "one per non-consumable")
    XCTAssertGreaterThan(paged.inAppPurchases.count, ReceiptHistory.pageSize)
    XCTAssertEqual(try ReceiptHistory.read(account: "nobody", from: ledger), ReceiptHistory())
  }
}
