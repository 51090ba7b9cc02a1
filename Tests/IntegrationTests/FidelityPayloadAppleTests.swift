import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Issue 12: Apple's `SignedDataVerifier` accepts the payloads of the new purchase paths and its
/// models decode the fields we added: a restored transaction with its price (B20), a re-download
/// carrying the existing transaction (B23), an Ask to Buy approval after the app finished the
/// deferred transaction (B13), Family Sharing (B72: FAMILY_SHARED, FAMILY_REVOKE), a refund
/// (`revocationType`, `revocationPercentage`) and `appTransactionId` on every transaction.
final class FidelityPayloadAppleTests: XCTestCase {
  static let removeAds = "com.jake.sample.ExInAppPurchase.shopping"
  static let coins = "com.jake.sample.ExInAppPurchase.coins100"

  func testAppleAcceptsAndDecodesTheNewPurchasePayloads() throws {
    let scratch = try TemporaryDirectory(self)
    let apple = try AppleVerifier.preparedOrSkipped()
    let script = scratch.path("fidelity.scenario")
    try Data("""
      family parent kid
      account parent
      set dialogs off
      buy \(Self.removeAds)
      finish last
      restore
      expect restored 1
      finish all
      buy \(Self.removeAds)
      finish last
      set ask-to-buy on
      buy \(Self.coins)
      finish last
      approve last
      expect unfinished 1
      finish all
      set ask-to-buy off
      refund \(Self.removeAds)
      account kid
      relaunch
      expect unfinished 1

      """.utf8).write(to: URL(fileURLWithPath: script))
    let data = scratch.path("data")
    let result = try StorefrontBinary.run(["run", script, "--json", "--data-dir", data], in: scratch)
    XCTAssertEqual(result.status, 0, result.summary)
    let root = scratch.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", data], in: scratch).status, 0)

    var cases: [AppleVerifier.Case] = []
    var seen: Set<String> = []
    for event in EventLine.parse(result.stdout, source: "fidelity") {
      guard let jws = event.object["signedTransaction"] as? String, seen.insert(jws).inserted else { continue }
      cases.append(.init(
        name: "line \(event.number) \(event.event ?? "") \(event.state ?? "")", kind: .transaction, jws: jws, rootDER: root,
        bundleID: "com.example.storefront"))
    }
    let verdicts = try apple.verify(cases)
    var decoded: [AppleVerifier.Verdict.Decoded] = []
    for item in cases {
      let verdict = try XCTUnwrap(verdicts[item.name], item.name)
      XCTAssertEqual(verdict.status, 0, "\(item.name): Apple's SignedDataVerifier rejected it: \(verdict.cause ?? "")")
      if let model = verdict.decoded { decoded.append(model) }
    }
    XCTAssertEqual(decoded.count, cases.count)
    for model in decoded {
      XCTAssertEqual(model.appTransactionId?.count, 18, "every transaction carries appTransactionId")
    }
    let shared = decoded.filter { $0.inAppOwnershipType == "FAMILY_SHARED" }
    XCTAssertFalse(shared.isEmpty, "the kid's copy of the family-shareable purchase")
    XCTAssertTrue(decoded.contains { $0.inAppOwnershipType == "FAMILY_SHARED" && $0.revocationType == "FAMILY_REVOKE" })
    XCTAssertTrue(decoded.contains { $0.revocationType == "REFUND_FULL" && $0.revocationPercentage == 100_000 })
    // B20: a restored non-consumable keeps its price.
    let removeAds = decoded.filter { $0.productId == Self.removeAds && $0.inAppOwnershipType == "PURCHASED" }
    XCTAssertTrue(removeAds.allSatisfy { ($0.price ?? 0) > 0 }, "no $0 restore: \(removeAds.map { $0.price ?? -1 })")
    XCTAssertEqual(Set(decoded.filter { $0.productId == Self.coins }.map(\.transactionId)).count, 1, "one approved purchase")
  }
}
