import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

final class StoreStepCompactionTests: XCTestCase {
  private func transaction(_ id: UInt64) -> PaymentTransaction {
    PaymentTransaction(
      id: .init(id), account: "alice", productID: "com.example.gems", productKind: .consumable, state: .purchased,
      purchaseDate: Date(timeIntervalSince1970: 1_700_000_000), price: 1)
  }

  /// The ledger does not hold a row the same batch puts, so its finish must be written whole.
  func testAFinishOfARowTheBatchPutsBecomesAPut() {
    let bought = transaction(1)
    var finished = bought
    finished.isFinished = true
    let stored = transaction(2)
    var storedFinished = stored
    storedFinished.isFinished = true
    var step = StoreStep()
    step.changes = [.putTransaction(bought), .finishTransaction(storedFinished), .finishTransaction(finished)]
    XCTAssertEqual(step.compactedChanges, [.finishTransaction(storedFinished), .putTransaction(finished)])
  }

  func testAPutAfterAFinishSupersedesIt() {
    let bought = transaction(1)
    var finished = bought
    finished.isFinished = true
    var refunded = finished
    refunded.revocationDate = Date(timeIntervalSince1970: 1_700_000_100)
    var step = StoreStep()
    step.changes = [.finishTransaction(finished), .putTransaction(refunded)]
    XCTAssertEqual(step.compactedChanges, [.putTransaction(refunded)])
  }

  /// The machine's finish of a transaction an earlier step stored is a finish, not a put.
  func testTheMachineFinishesWithAFlagChange() throws {
    let store = try TestStore()
    let bought = try store.buy(FixtureCatalog.removeAds)
    let step = try store.queue.perform(.finish(bought.id))
    XCTAssertEqual(step.changes.compactMap { if case .finishTransaction(let t) = $0 { t.id } else { nil } }, [bought.id])
    XCTAssertEqual(try store.ledger.transactions([bought.id]).first?.isFinished, true)
  }
}
