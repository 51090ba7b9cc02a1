import Foundation
import StorefrontProcessTestSupport
import XCTest

/// B89 checked by Apple's App Store Server Library (newest on PyPI): a consumable and a
/// non-consumable bought with offer codes (Examples/12-offer-codes.scenario) are signed with
/// `offerType` 3 (`OFFER_CODE`), the offer's `offerIdentifier` and `offerDiscountType` `ONE_TIME`,
/// which `SignedDataVerifier` accepts and its models decode as their own cases.
final class OfferCodePayloadAppleTests: XCTestCase {
  func testAppleDecodesOfferCodePurchasesOfOneTimeProducts() throws {
    let scratch = try TemporaryDirectory(self)
    let apple = try AppleVerifier.preparedOrSkipped()
    let example = try ExampleScenarios.named("12")
    let data = scratch.path("data")
    let result = try StorefrontBinary.run(["run", example.path, "--json", "--data-dir", data], in: scratch)
    XCTAssertEqual(result.status, 0, result.summary)
    let root = scratch.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", data], in: scratch).status, 0)

    var cases: [AppleVerifier.Case] = []
    var seen: Set<String> = []
    for event in EventLine.parse(result.stdout, source: "12") {
      guard let jws = event.object["signedTransaction"] as? String, seen.insert(jws).inserted else { continue }
      cases.append(.init(name: "line \(event.number)", kind: .transaction, jws: jws, rootDER: root, bundleID: "com.example.storefront"))
    }
    XCTAssertEqual(cases.count, 3, "three purchases by code: Remove Ads, then 100 coins twice")
    let verdicts = try apple.verify(cases)
    for item in cases {
      let verdict = try XCTUnwrap(verdicts[item.name], item.name)
      XCTAssertEqual(verdict.status, 0, "\(item.name): Apple's SignedDataVerifier rejected it: \(verdict.cause ?? "")")
      let model = try XCTUnwrap(verdict.offer, item.name)
      XCTAssertEqual(model.offerType, 3, item.name)
      XCTAssertEqual(model.offerTypeName, "OFFER_CODE", item.name)
      XCTAssertEqual(model.offerDiscountType, "ONE_TIME", item.name)
      XCTAssertEqual(model.offerDiscountTypeKnown, true, "\(item.name): Apple's OfferDiscountType has ONE_TIME")
      XCTAssertNotNil(model.offerIdentifier, item.name)
    }
  }
}
