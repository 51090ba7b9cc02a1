import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

private typealias F = FixtureCatalog

/// B72 of `Docs/Fidelity.md`: a family-shareable purchase reaches the family as
/// FAMILY_SHARED transactions, and a refund revokes them (FAMILY_REVOKE).
final class FamilySharingTests: XCTestCase {
  func testB72AFamilyShareablePurchaseReachesEveryMemberAsFamilyShared() throws {
    let store = try TestStore(account: "parent")
    try store.queue.perform(.setFamily(["parent", "kid", "teen"]))
    let bought = try store.buy(F.removeAds)
    XCTAssertEqual(store.queue.lastTransactionID, bought.id, "`last` is the purchaser's transaction")
    XCTAssertEqual(bought.familySharedBy, nil)
    XCTAssertEqual(TestStore.payload(of: bought.signedTransaction)["inAppOwnershipType"] as? String, "PURCHASED")
    for member in ["kid", "teen"] {
      let shared = try XCTUnwrap(try store.queue.history(account: member).first)
      XCTAssertEqual(shared.productID, F.removeAds)
      XCTAssertEqual(shared.familySharedBy, "parent")
      XCTAssertNotEqual(shared.id, bought.id)
      XCTAssertFalse(shared.isFinished, "the member's app has to get it")
      XCTAssertEqual(TestStore.payload(of: shared.signedTransaction)["inAppOwnershipType"] as? String, "FAMILY_SHARED")
      XCTAssertTrue(try store.queue.entitlements(account: member).owns(F.removeAds))
    }
    // A consumable is never shared.
    try store.buy(F.coins)
    XCTAssertEqual(try store.queue.history(account: "kid").count, 1)
    // The member's app gets it at its launch.
    try store.queue.signIn("kid")
    store.observer.calls.removeAll()
    try store.queue.relaunch()
    XCTAssertEqual(store.observer.calls.count, 1)
    XCTAssertTrue(store.observer.calls.first?.hasSuffix("\(F.removeAds) purchased") == true)
  }

  func testB72ARefundOfThePurchaseRevokesTheFamilysCopies() throws {
    let store = try TestStore(account: "parent")
    try store.queue.perform(.setFamily(["parent", "kid"]))
    let bought = try store.buy(F.removeAds)
    let step = try store.queue.perform(.refund(bought.id, reason: 0))
    let revoked = step.events.compactMap { if case .transactionRevoked(let t) = $0 { t } else { nil } }
    XCTAssertEqual(revoked.map(\.account), ["parent", "kid"])
    let copy = try XCTUnwrap(revoked.last)
    XCTAssertEqual(TestStore.payload(of: copy.signedTransaction)["revocationType"] as? String, "FAMILY_REVOKE")
    XCTAssertEqual(TestStore.payload(of: revoked.first?.signedTransaction)["revocationType"] as? String, "REFUND_FULL")
    XCTAssertFalse(try store.queue.entitlements(account: "kid").owns(F.removeAds))
  }

  func testB72LeavingTheFamilyStopsSharingAndNonMembersGetNothing() throws {
    let store = try TestStore(account: "parent")
    try store.queue.perform(.setFamily(["parent", "kid"]))
    try store.queue.perform(.setFamily(["kid"]))
    try store.buy(F.removeAds)
    XCTAssertEqual(try store.queue.history(account: "kid"), [])
  }
}
