import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// `buy … jws` and `intro=allow|withhold`: the runner signs as the developer's server does (B74, B75).
extension SubscriptionScenarioTests {
  func testSignedRequestsAreCheckedAndApplied() throws {
    let (outcome, events) = try run("""
      account tester
      buy \(F.monthly) intro=withhold
      expect state last purchased
      finish last
      expire last
      buy \(F.monthly) offer=winback50 jws signature=bad
      expect state last failed
      buy \(F.monthly) offer=winback50 jws
      expect state last purchased
      """)
    XCTAssertEqual(outcome, .passed(steps: 9))
    let purchased = events.filter { $0["state"] as? String == "purchased" }.map { TestStore.payload(of: $0["signedTransaction"] as? String) }
    XCTAssertNil(purchased.first?["offerType"], "the server withheld the free trial")
    XCTAssertEqual(purchased.last?["offerType"] as? Int, 2, "the signed promotional offer")
    XCTAssertEqual(events.compactMap(errorName), ["invalidSignature"])
  }

  func testBadSignedRequestFormsAreLocatedIssues() {
    guard case .failure(let found) = ScenarioParser(catalog: F.make()).parse("""
      buy \(F.monthly) intro=maybe
      buy \(F.monthly) offer=winback50 signed jws
      buy \(F.monthly) jws
      """) else { return XCTFail("expected issues") }
    let text = found.issues.map(\.description).joined(separator: "\n")
    XCTAssertTrue(text.contains("1:") && text.contains("Unknown intro 'maybe'"), text)
    XCTAssertTrue(text.contains("Write either 'signed' (SKPaymentDiscount) or 'jws'"), text)
    XCTAssertTrue(text.contains("A JWS offer needs an offer: add offer=OFFER-ID."), text)
  }
}
