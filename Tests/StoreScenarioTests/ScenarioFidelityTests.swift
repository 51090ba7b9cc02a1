import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// The scenario language against Apple's behaviour, one test per audit row
/// (`Docs/Fidelity.md`: B10, B27, B55, B70 and the "surprising" list).
final class ScenarioFidelityTests: XCTestCase {
  typealias F = FixtureCatalog

  /// The unit tests' stand-in for the CLI's OpenSSL verifier: the test signer signs with ones,
  /// `fail verification` zeroes the signature.
  static let zeroSignatureIsBad = SignatureVerifier { jws in
    jws.hasSuffix(Data(repeating: 0, count: 64).base64URLEncoded) ? "tampered: the signature does not match" : nil
  }

  func run(_ script: String, json: Bool = false, verifier: SignatureVerifier? = nil) throws -> (ScenarioOutcome, [String]) {
    let store = try TestStore(account: nil, dialogs: true)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse(script).get()
    var lines: [String] = []
    let outcome = ScenarioRunner(queue: store.queue, json: json, verifier: verifier) { lines.append($0) }.run(steps)
    return (outcome, lines)
  }

  func objects(_ lines: [String]) throws -> [[String: Any]] {
    try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
  }

  func issues(_ script: String) -> [String] {
    guard case .failure(let issues) = ScenarioParser(catalog: F.make()).parse(script) else { return [] }
    return issues.issues.map(\.description)
  }

  // MARK: Surprising: unknown SKError numbers

  func testSurprisingUnknownSKErrorNumberIsALocatedParseErrorListingTheCodes() throws {
    let found = issues("fail purchase 21\nfail restore -1\n")
    XCTAssertEqual(found.count, 2)
    XCTAssertTrue(found[0].hasPrefix("1:15: Unknown StoreKit error '21'; SKError.Code defines 0 unknown, 1 clientInvalid, "), found[0])
    XCTAssertTrue(found[0].contains("12 invalidSignature, 13 missingOfferParams, 14 invalidOfferPrice, 15 overlayCancelled"), found[0])
    XCTAssertTrue(found[0].contains("18 ineligibleForOffer, 19 unsupportedPlatform, 20 overlayPresentedInBackgroundScene, and 5002"), found[0])
    XCTAssertTrue(found[1].hasPrefix("2:14: Unknown StoreKit error '-1'"), found[1])
    // Every number SKError.Code defines, and the sandbox server's 5002, still parse.
    let valid = (0...20).map { "fail purchase \($0)" } + ["fail purchase 5002", "fail purchase server"]
    XCTAssertEqual(issues(valid.joined(separator: "\n")), [])
    XCTAssertNil(StoreKitError(parsing: "21"))
    XCTAssertNil(StoreKitError(parsing: "5003"))
    XCTAssertEqual(StoreKitError(parsing: "20")?.name, "overlayPresentedInBackgroundScene")
    XCTAssertEqual(StoreKitError(parsing: "5002"), .serverUnknown)
  }

  // MARK: Surprising: the quantity limit

  func testSurprisingQuantityAboveTenFailsWithPaymentInvalidAsSKPaymentAllows() throws {
    // SKPayment.quantity: "the minimum value is 1, and the maximum value is 10".
    let (outcome, _) = try run("""
      account q
      set dialogs off
      buy \(F.coins) quantity=10
      expect state last purchased
      buy \(F.coins) quantity=11
      expect state last failed
      expect error last paymentInvalid
      expect quantity \(F.coins) 10
      """)
    XCTAssertEqual(outcome, .passed(steps: 8))
  }

  // MARK: Surprising: expect signed verifies

  func testSurprisingExpectSignedFailsWhenTheSignatureDoesNotVerify() throws {
    let script = """
      account v
      set dialogs off
      fail verification unknown
      buy \(F.removeAds)
      expect unverified last
      expect signed last
      """
    let (outcome, _) = try run(script, verifier: Self.zeroSignatureIsBad)
    XCTAssertEqual(outcome, .assertionFailed(line: 6, message: "expected transaction 1000000001 to carry a verified signedTransaction, but its signature does not verify: tampered: the signature does not match"))
    let good = try run("account v\nset dialogs off\nbuy \(F.removeAds)\nexpect signed last\nexpect unverified last\n", verifier: Self.zeroSignatureIsBad)
    XCTAssertEqual(good.0, .assertionFailed(line: 5, message: "expected transaction 1000000001 to be unverified, but its signedTransaction verifies"))
    // Without a verifier, `expect signed` can only see that a JWS is there; `expect unverified` cannot be decided.
    XCTAssertEqual(try run("account v\nset dialogs off\nbuy \(F.removeAds)\nexpect signed last\n").0, .passed(steps: 4))
    XCTAssertEqual(try run("account v\nset dialogs off\nbuy \(F.removeAds)\nexpect unverified last\n").0,
      .assertionFailed(line: 4, message: "expect unverified needs a signature verifier, and this run has none"))
  }

  // MARK: B10

  func testB10TesterRefundIsAlwaysGrantedDespiteASimulatedRefundSheetError() throws {
    let (outcome, lines) = try run("""
      account r
      set dialogs off
      buy \(F.removeAds)
      fail refund failed
      refund last
      expect not-owned \(F.removeAds)
      expect last-event transactionRevoked
      """, json: true)
    XCTAssertEqual(outcome, .passed(steps: 7))
    XCTAssertFalse(lines.contains { $0.contains("\"event\":\"error\"") }, lines.joined(separator: "\n"))
  }

  func testB10RequestRefundReturnsTheSheetsResultAndRefundsOnlyWhenGranted() throws {
    let (outcome, lines) = try run("""
      account r
      set dialogs off
      buy \(F.removeAds)
      request-refund last answer=cancel
      expect owned \(F.removeAds)
      request-refund last answer=decline
      expect owned \(F.removeAds)
      fail refund duplicateRequest
      request-refund last
      expect owned \(F.removeAds)
      fail refund off
      request-refund last
      expect not-owned \(F.removeAds)
      request-refund last
      expect misuse cannotRefund
      """, json: true)
    XCTAssertEqual(outcome, .passed(steps: 15))
    let requests = try objects(lines).filter { $0["event"] as? String == "refundRequest" }
    XCTAssertEqual(requests.map { $0["result"] as? String }, ["userCancelled", "success", "failed", "success"])
    XCTAssertEqual(requests.map { $0["line"] as? Int }, [4, 6, 9, 12])
    XCTAssertEqual(requests.map { $0["transactionId"] as? String }, Array(repeating: "1000000001", count: 4))
    let error = try XCTUnwrap(requests[2]["error"] as? [String: Any])
    XCTAssertEqual(error["name"] as? String, "duplicateRequest")
    XCTAssertEqual(error["domain"] as? String, "StoreKit.Transaction.RefundRequestError")
    // The granted one is followed by the refund itself, on the same line.
    let events = try objects(lines).filter { $0["line"] as? Int == 12 }.map { $0["event"] as? String }
    XCTAssertEqual(events, ["refundRequest", "transactionRevoked"])
  }

  func testB10RequestRefundFailsWithAStoreKitErrorToo() throws {
    // The sheet throws `Transaction.RefundRequestError` or a `StoreKitError`; other names are refused.
    XCTAssertEqual(issues("fail refund networkUnavailable\n").count, 1)
    let (outcome, text) = try run("account r\nset dialogs off\nbuy \(F.coins)\nfail refund unknown\nrequest-refund last\n")
    XCTAssertEqual(outcome, .passed(steps: 5))
    XCTAssertTrue(text.contains { $0.hasSuffix("refundRequest error=[\"name\": \"unknown\", \"type\": \"StoreKitError\"] result=failed transactionId=1000000001") }, text.joined(separator: "\n"))
  }

  // MARK: B27

  func testB27FinishingAPurchasingTransactionCrashesTheAppAndStopsTheRun() throws {
    let (outcome, lines) = try run("""
      account c
      buy \(F.removeAds)
      finish last
      confirm
      """, json: true)
    guard case .crashed(let line, let crash) = outcome else { return XCTFail("expected a crash, got \(outcome)") }
    XCTAssertEqual(line, 3)
    XCTAssertEqual(crash.exception, "NSInternalInconsistencyException")
    XCTAssertEqual(crash.reason, "Cannot finish a purchasing transaction")
    let last = try XCTUnwrap(try objects(lines).last)
    XCTAssertEqual(last["event"] as? String, "appCrashed")
    XCTAssertEqual(last["transactionId"] as? String, "1000000001")
    XCTAssertEqual(last["exception"] as? String, "NSInternalInconsistencyException")
    XCTAssertFalse(lines.contains { $0.contains("\"line\":4") }, "nothing runs after the crash")
  }

  func testB27ExpectCrashAssertsItAndTheRunGoesOnAfterARelaunch() throws {
    let (outcome, lines) = try run("""
      account c
      buy \(F.removeAds)
      finish last
      expect crash
      expect prompt confirm
      confirm
      expect state last purchased
      """)
    XCTAssertEqual(outcome, .passed(steps: 7))
    XCTAssertTrue(lines.contains { $0.contains("appCrashed: The app would have crashed: finishTransaction on transaction 1000000001") }, lines.joined(separator: "\n"))
    let (unexpected, _) = try run("account c\nexpect crash\n")
    XCTAssertEqual(unexpected, .assertionFailed(line: 2, message: "expected the line before to crash the app, but it did not"))
  }

  // MARK: B55

  func testB55StorePaymentAnsweredLaterIsAddedByTheAppLater() throws {
    let (outcome, lines) = try run("""
      account p
      store-payment \(F.removeAds) answer=later
      expect transactions 0
      expect last-event shouldAddStorePayment
      add-store-payment \(F.removeAds)
      expect prompt confirm
      confirm
      expect owned \(F.removeAds)
      store-payment \(F.coins) answer=cancel
      expect transactions 1
      """, json: true)
    XCTAssertEqual(outcome, .passed(steps: 10))
    let byLine = try objects(lines).map { ($0["line"] as? Int ?? 0, $0["event"] as? String ?? "") }
    XCTAssertEqual(byLine.filter { $0.0 == 2 }.map(\.1), ["shouldAddStorePayment"])
    XCTAssertEqual(byLine.filter { $0.0 == 5 }.map(\.1), ["transactionUpdated", "sheetPresented"])
  }

  func testB55AddStorePaymentNeedsAKeptPayment() {
    XCTAssertEqual(issues("add-store-payment \(F.removeAds)\nstore-payment \(F.coins) answer=cancel\nadd-store-payment \(F.coins)\nstore-payment \(F.coins) answer=maybe\n"), [
      "1:1: No App Store payment of '\(F.removeAds)' is waiting to be added; answer it with `store-payment \(F.removeAds) answer=later` first.",
      "3:1: No App Store payment of '\(F.coins)' is waiting to be added; answer it with `store-payment \(F.coins) answer=later` first.",
      "4:43: Invalid answer 'maybe'; use add, later or cancel.",
    ])
  }

  // MARK: B70

  func testB70BuyingAProductNotInTheCatalogWarnsAndTheStoreRefusesIt() throws {
    let script = "account u\nset dialogs off\nbuy com.example.unknown\nexpect error last paymentInvalid\nbuy com.example.coins10\n"
    var warnings: [ScenarioIssue] = []
    let steps = try ScenarioParser(catalog: F.make()).parse(script) { warnings.append($0) }.get()
    XCTAssertEqual(warnings.map(\.description), [
      "3:5: Product 'com.example.unknown' is not in the catalog; the store will refuse the payment.",
      "5:5: Product 'com.example.coins10' is not in the catalog; the store will refuse the payment. Did you mean 'com.example.coins100'?",
    ])
    let store = try TestStore(account: nil, dialogs: true)
    let outcome = ScenarioRunner(queue: store.queue, json: false) { _ in }.run(steps)
    XCTAssertEqual(outcome, .passed(steps: 5))
    // Other verbs still refuse an unknown product outright.
    XCTAssertEqual(issues("store-payment com.example.unknown\n"), ["1:15: Unknown product 'com.example.unknown'; it is not in the catalog."])
  }
}
