import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// The subscription rows of the fidelity audit as scenarios (`Docs/Fidelity.md`).
final class SubscriptionScenarioTests: XCTestCase {
  typealias F = FixtureCatalog

  func run(_ script: String, signer: (any PromotionalOfferSigner)? = TestOfferKey()) throws -> (ScenarioOutcome, [[String: Any]]) {
    var environment = TestStore.environment
    environment.offerSignatureVerifier = TestOfferKey()
    let store = try TestStore(account: nil, dialogs: false, environment: environment)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse(script).get()
    var lines: [String] = []
    let runner = ScenarioRunner(queue: store.queue, json: true) { lines.append($0) }
    runner.offerSigner = signer
    let outcome = runner.run(steps)
    let objects = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    return (outcome, objects)
  }

  func errorName(_ event: [String: Any]) -> String? { (event["error"] as? [String: Any])?["name"] as? String }

  func testB51BuyWithASignedPromotionalOfferAndWithABadOrMissingSignature() throws {
    let (outcome, events) = try run("""
      account tester
      set dialogs off
      buy \(F.monthly)
      expire last
      buy \(F.monthly) offer=winback50
      expect state last failed
      buy \(F.monthly) offer=winback50 signature=bad
      expect state last failed
      buy \(F.monthly) offer=winback50 signed
      expect state last purchased
      """)
    XCTAssertEqual(outcome, .passed(steps: 10))
    let failed = events.filter { $0["state"] as? String == "failed" }
    XCTAssertEqual(failed.map(errorName), ["missingOfferParams", "invalidSignature"])
    let promo = try XCTUnwrap(events.last { $0["state"] as? String == "purchased" })
    XCTAssertEqual(TestStore.payload(of: promo["signedTransaction"] as? String)["offerType"] as? Int, 2)
  }

  func testB51SignedOfferNeedsAnOfferAndAKey() throws {
    let catalog = FixtureCatalog.make()
    let parsed = ScenarioParser(catalog: catalog).parse("buy \(F.monthly) signed")
    guard case .failure(let issues) = parsed else { return XCTFail("a signature without an offer must not parse") }
    XCTAssertTrue(issues.issues.map(\.description).joined().contains("offer=OFFER-ID"), issues.issues.map(\.description).joined())
    let (outcome, _) = try run("account tester\nbuy \(F.monthly) offer=winback50 signed", signer: nil)
    guard case .aborted(line: 2, _) = outcome else { return XCTFail("\(outcome)") }
  }

  func testB48PriceIncreaseWithAPriceExpiresWithoutConsent() throws {
    let (outcome, events) = try run("""
      account tester
      set dialogs off
      buy \(F.monthly)
      price-increase last request price=3.49
      advance 8d
      expect status \(F.monthly) expired
      """)
    XCTAssertEqual(outcome, .passed(steps: 6))
    let changes = events.filter { $0["event"] as? String == "subscriptionStatusChanged" }
    XCTAssertEqual(changes.map { $0["reason"] as? String }, ["purchased", "price increase requested", "price increase not consented"])
    // B40: every change carries the renewal info as it is now.
    let infos = changes.map { TestStore.payload(of: $0["signedRenewalInfo"] as? String) }
    XCTAssertEqual(infos.map { $0["priceIncreaseStatus"] as? Int }, [nil, 0, 0])
    XCTAssertEqual(infos.map { $0["renewalPrice"] as? Int }, [2990, 3490, 3490])
    XCTAssertEqual(infos.last?["expirationIntent"] as? Int, 3)
  }

  func testB48InvalidPriceIsAParseError() {
    let parsed = ScenarioParser(catalog: FixtureCatalog.make()).parse("price-increase last request price=cheap")
    guard case .failure(let issues) = parsed else { return XCTFail("price=cheap must not parse") }
    XCTAssertTrue(issues.issues.map(\.description).joined().contains("Invalid price 'cheap'"), issues.issues.map(\.description).joined())
  }

  func testB39GraceKeepsOwnershipAndB24RebuyFails() throws {
    let (outcome, events) = try run("""
      account tester
      set dialogs off
      buy \(F.monthly)
      buy \(F.monthly)
      expect state last failed
      billing-issue on
      grace on
      advance 8d
      expect status \(F.monthly) inGracePeriod
      expect owned \(F.monthly)
      """)
    XCTAssertEqual(outcome, .passed(steps: 10))
    XCTAssertEqual(events.filter { $0["state"] as? String == "failed" }.map(errorName), ["unknown"])
    XCTAssertEqual(events.filter { $0["state"] as? String == "purchased" }.count, 1)
  }
}
