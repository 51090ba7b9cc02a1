import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// The scenario output for the fidelity residue (`Docs/Fidelity.md`): B73's sheet terms
/// in `sheetPresented`, N8's refund-sheet errors.
final class FidelityResidueScenarioTests: XCTestCase {
  typealias F = FixtureCatalog

  func run(_ script: String, json: Bool, api: StoreKitAPI = .storeKit1) throws -> (ScenarioOutcome, [String]) {
    let store = try TestStore(account: nil, dialogs: true)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse(script).get()
    var lines: [String] = []
    let outcome = ScenarioRunner(queue: store.queue, json: json, verifier: nil, api: api) { lines.append($0) }.run(steps)
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

  func testN6AnotherAccountsRenewalDoesNotReachTheAppOfTheSignedInAccount() throws {
    let script = "account amy\nset dialogs off\nbuy \(F.yearly)\naccount bob\nadvance P13M\nexpect unfinished 0\naccount amy\nexpect unfinished 2\n"
    for api in [StoreKitAPI.storeKit1, .storeKit2] {
      let (outcome, lines) = try run(script, json: true, api: api)
      XCTAssertEqual(outcome, .passed(steps: 8), lines.joined(separator: "\n"))
      let whileBob = try objects(lines).filter { $0["line"] as? Int == 5 }.compactMap { $0["event"] as? String }
      XCTAssertFalse(whileBob.contains { $0.lowercased().contains("transaction") || $0.lowercased().contains("status") }, "\(api): \(whileBob)")
      // The same renewal with amy signed in reaches the app.
      let (_, control) = try run(script.replacingOccurrences(of: "account bob", with: "account amy"), json: true, api: api)
      let whileAmy = try objects(control).filter { $0["line"] as? Int == 5 }.compactMap { $0["event"] as? String }
      XCTAssertTrue(whileAmy.contains { $0.lowercased().contains("transaction") }, "\(api): \(whileAmy)")
    }
    // The payment queue's observer too: nothing for amy while bob is signed in.
    let store = try TestStore(account: "amy")
    try store.buy(F.yearly)
    try store.queue.signIn("bob")
    store.observer.calls.removeAll()
    try store.queue.advance(by: 400 * 86_400)
    XCTAssertEqual(store.observer.calls, [])
    XCTAssertEqual(try store.queue.history(account: "amy").filter { $0.reason == .renewal }.count, 1, "the renewal happened")
  }

  /// A catalog with one subscription that has an offer code.
  static func codeCatalog() -> Catalog {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    let code = SubscriptionOffer(
      kind: .code, id: "SPRING1", referenceName: "Spring Code", paymentMode: .freeTrial, period: month, eligibility: ["new"])
    let product = Product(
      id: "com.example.plus", kind: .autoRenewableSubscription, referenceName: "Plus", price: Decimal(string: "4.99") ?? 0,
      subscription: SubscriptionInfo(groupID: "PLUS", level: 1, period: month, codeOffers: [code]))
    return Catalog(products: [product], subscriptionGroups: [SubscriptionGroup(id: "PLUS", name: "Plus", productIDs: [product.id])])
  }

  func runCodes(_ script: String, api: StoreKitAPI) throws -> (ScenarioOutcome, [[String: Any]]) {
    let store = try TestStore(catalog: Self.codeCatalog(), account: nil, dialogs: true)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse(script).get()
    var lines: [String] = []
    let outcome = ScenarioRunner(queue: store.queue, json: true, verifier: nil, api: api) { lines.append($0) }.run(steps)
    return (outcome, try objects(lines))
  }

  func testB50ACodeRedeemedInTheSheetReachesTheObserverAndTransactionUpdatesNotPurchase() throws {
    // A code as a customer types it: case does not matter.
    let script = "account r\nredeem CODE\nconfirm\nexpect owned com.example.plus\nredeem NOPE\nexpect misuse unknownOfferCode\n"
    let (outcome, events) = try runCodes(script.replacingOccurrences(of: "CODE", with: "spring1"), api: .storeKit1)
    XCTAssertEqual(outcome, .passed(steps: 6), "\(events)")
    let sheet = try XCTUnwrap(events.first { $0["event"] as? String == "sheetPresented" })
    XCTAssertEqual(sheet["offerType"] as? Int, 3, "the sheet states the code's offer")
    XCTAssertEqual(sheet["price"] as? String, "0")
    let purchased = try XCTUnwrap(events.first { $0["event"] as? String == "transactionUpdated" && $0["state"] as? String == "purchased" })
    XCTAssertEqual(purchased["productId"] as? String, "com.example.plus")
    XCTAssertEqual(purchased["line"] as? Int, 3)
    let (modernOutcome, modern) = try runCodes(script.replacingOccurrences(of: "CODE", with: "SPRING1"), api: .storeKit2)
    XCTAssertEqual(modernOutcome, .passed(steps: 6), "\(modern)")
    let names = modern.compactMap { $0["event"] as? String }
    XCTAssertFalse(names.contains { $0.lowercased().contains("purchase") }, "no purchase() call was made: \(names)")
    XCTAssertTrue(modern.contains { ($0["event"] as? String)?.lowercased().contains("update") == true && $0["line"] as? Int == 3 }, "\(names)")
  }
}
