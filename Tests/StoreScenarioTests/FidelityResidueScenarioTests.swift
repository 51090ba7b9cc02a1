import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// The scenario output for the fidelity residue (`notes/fidelity-residue.md`): B73's sheet terms
/// in `sheetPresented`, N8's refund-sheet errors.
final class FidelityResidueScenarioTests: XCTestCase {
  typealias F = FixtureCatalog

  func run(_ script: String, json: Bool) throws -> (ScenarioOutcome, [String]) {
    let store = try TestStore(account: nil, dialogs: true)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse(script).get()
    var lines: [String] = []
    let outcome = ScenarioRunner(queue: store.queue, json: json, verifier: nil) { lines.append($0) }.run(steps)
    return (outcome, lines)
  }

  func objects(_ lines: [String]) throws -> [[String: Any]] {
    try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
  }

  func testB73SheetPresentedForASubscriptionAddsItsTermsAndKeepsItsFields() throws {
    let (outcome, lines) = try run("account t\nbuy \(F.monthly)\nconfirm\nbuy \(F.coins)\nconfirm\n", json: true)
    XCTAssertEqual(outcome, .passed(steps: 5))
    let sheets = try objects(lines).filter { $0["event"] as? String == "sheetPresented" }
    XCTAssertEqual(sheets.count, 2)
    let trial = sheets[0]
    XCTAssertEqual(trial["sheet"] as? String, "confirmPurchase")
    XCTAssertEqual(trial["price"] as? String, "0", "what confirming charges, as before")
    XCTAssertEqual(trial["currency"] as? String, "USD")
    XCTAssertEqual(trial["subscriptionPeriod"] as? String, "P1M")
    XCTAssertEqual(trial["renewalPrice"] as? String, "2.99")
    XCTAssertEqual(trial["offerType"] as? Int, 1)
    XCTAssertEqual(trial["offerDiscountType"] as? String, "FREE_TRIAL")
    XCTAssertEqual(trial["offerPeriod"] as? String, "P1W")
    XCTAssertEqual(trial["offerPeriodCount"] as? Int, 1)
    XCTAssertEqual(trial["offerPrice"] as? String, "0")
    let coins = sheets[1]
    XCTAssertEqual(coins["price"] as? String, "0.99")
    XCTAssertNil(coins["renewalPrice"], "a one-time purchase has no terms")
    XCTAssertNil(coins["offerType"])
    let (_, text) = try run("account t\nbuy \(F.monthly)\n", json: false)
    XCTAssertTrue(text.contains { $0.contains("sheetPresented currency=USD offerDiscountType=FREE_TRIAL offerPeriod=P1W offerPeriodCount=1 offerPrice=0 offerType=1 price=0") && $0.contains("renewalPrice=2.99") && $0.contains("subscriptionPeriod=P1M") }, text.joined(separator: "\n"))
  }

  func testN8TheRefundSheetThrowsStoreKitErrorsNotSKErrors() throws {
    let (outcome, lines) = try run("account r\nset dialogs off\nbuy \(F.removeAds)\nfail refund networkError\nrequest-refund last\n", json: true)
    XCTAssertEqual(outcome, .passed(steps: 5))
    let request = try XCTUnwrap(try objects(lines).first { $0["event"] as? String == "refundRequest" })
    let error = try XCTUnwrap(request["error"] as? [String: Any])
    XCTAssertEqual(error["type"] as? String, "StoreKitError")
    XCTAssertEqual(error["name"] as? String, "networkError")
    XCTAssertNil(error["domain"], "no SKErrorDomain")
    XCTAssertNil(error["code"])
    let (_, text) = try run("account r\nset dialogs off\nbuy \(F.removeAds)\nfail refund networkError\nrequest-refund last\n", json: false)
    XCTAssertTrue(text.contains { $0.hasSuffix(#"refundRequest error=["name": "networkError", "type": "StoreKitError"] result=failed transactionId=1000000001"#) }, text.joined(separator: "\n"))
  }
}
