import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// Scenarios as a StoreKit 2 app runs them: the `--api storekit2` view, the StoreKit 2 verbs and
/// expectations (B69), the StoreKit 2 error names (B6) and the calls `fail` can break (B9).
final class StoreKit2ScenarioTests: XCTestCase {
  typealias F = FixtureCatalog

  func run(_ script: String, api: StoreKitAPI = .storeKit2, json: Bool = false) throws -> (ScenarioOutcome, [String]) {
    let store = try TestStore(account: nil, dialogs: true)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse(script).get()
    var lines: [String] = []
    let outcome = ScenarioRunner(queue: store.queue, json: json, api: api) { lines.append($0) }.run(steps)
    return (outcome, lines)
  }

  func objects(_ lines: [String]) throws -> [[String: Any]] {
    try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
  }

  func testB69PurchaseResultsAndTheUpdatesRule() throws {
    let (outcome, lines) = try run("""
      account jake
      buy \(F.removeAds)
      confirm
      expect purchase-result last success
      expect purchase-result \(F.removeAds) verified
      expect updates 0
      set ask-to-buy on
      buy \(F.coins)
      confirm
      expect purchase-result pending
      approve last
      expect updates 1
      set ask-to-buy off
      buy \(F.monthly)
      confirm
      advance 32d
      expect updates 2
      refund \(F.removeAds)
      expect updates 3
      expect last-event transactionUpdate
      """, json: true)
    XCTAssertEqual(outcome, .passed(steps: 20), lines.joined(separator: "\n"))
    let events = try objects(lines)
    let names = events.compactMap { $0["event"] as? String }
    XCTAssertFalse(names.contains("transactionUpdated"), "no StoreKit 1 callbacks in the StoreKit 2 view")
    XCTAssertFalse(names.contains("transactionRemoved"))
    let results = events.filter { $0["event"] as? String == "purchaseResult" }
    XCTAssertEqual(results.map { $0["result"] as? String }, ["success", "pending", "success"])
    XCTAssertEqual(results[0]["verification"] as? String, "verified")
    XCTAssertNil(results[0]["state"], "StoreKit 2 transactions have no state")
    XCTAssertNotNil(results[0]["signedTransaction"])
    let updates = events.filter { $0["event"] as? String == "transactionUpdate" }
    XCTAssertEqual(updates.map { $0["productId"] as? String }, [F.coins.rawValue, F.monthly.rawValue, F.removeAds.rawValue])
    XCTAssertEqual(updates[1]["reason"] as? String, "renewal")
    XCTAssertNotNil(updates[2]["revocationDate"])
  }

  func testB69StoreKit1ViewIsTheDefaultAndUnchanged() throws {
    let script = "account jake\nbuy \(F.removeAds)\nconfirm\nexpect purchase-result success\n"
    let (outcome, lines) = try run(script, api: .storeKit1)
    XCTAssertEqual(outcome, .passed(steps: 4))
    XCTAssertTrue(lines.contains { $0.contains("updatedTransactions: \(F.removeAds) purchased") }, "\(lines)")
    XCTAssertFalse(lines.contains { $0.contains("purchase():") })
  }

  func testB6FailPurchaseWithStoreKit2Names() throws {
    let script = """
      account jake
      fail purchase networkError
      buy \(F.coins)
      confirm
      expect purchase-result threw networkError
      expect error last networkError
      expect error last cloudServiceNetworkConnectionFailed
      fail purchase invalidQuantity
      buy \(F.coins)
      confirm
      expect purchase-result invalidQuantity
      fail purchase userCancelled
      buy \(F.coins)
      confirm
      expect purchase-result threw userCancelled
      fail purchase off
      buy \(F.coins)
      cancel
      expect purchase-result userCancelled
      """
    let (modern, modernLines) = try run(script)
    XCTAssertEqual(modern, .passed(steps: 19), modernLines.joined(separator: "\n"))
    XCTAssertTrue(modernLines.contains { $0.hasSuffix("purchase() threw: \(F.coins) StoreKitError.networkError") }, "\(modernLines)")
    XCTAssertTrue(modernLines.contains { $0.hasSuffix("Product.PurchaseError.invalidQuantity") })
    let (classic, classicLines) = try run(script, api: .storeKit1, json: true)
    XCTAssertEqual(classic, .passed(steps: 19))
    let failed = try objects(classicLines).filter { $0["state"] as? String == "failed" }
    let errors = failed.compactMap { $0["error"] as? [String: Any] }
    XCTAssertEqual(errors.map { $0["name"] as? String }, ["cloudServiceNetworkConnectionFailed", "paymentInvalid", "paymentCancelled", "paymentCancelled"])
    XCTAssertEqual(errors.map { $0["code"] as? Int }, [7, 3, 2, 2])
  }

  func testB6UnknownErrorNamesSuggestStoreKit2Ones() throws {
    let store = try TestStore(account: nil)
    guard case .failure(let issues) = ScenarioParser(catalog: store.queue.catalog).parse("fail purchase networkEror\n") else {
      return XCTFail("parsed")
    }
    XCTAssertEqual(issues.issues.first?.message, "Unknown StoreKit error 'networkEror'. Did you mean 'networkError'?")
  }

  func testB69EntitlementsUnfinishedLatestAndSync() throws {
    let (outcome, lines) = try run("""
      account jake
      set dialogs off
      buy \(F.removeAds)
      buy \(F.coins)
      buy \(F.seasonPass)
      buy \(F.monthly)
      expect entitlement \(F.removeAds)
      expect no-entitlement \(F.coins)
      expect entitlement \(F.seasonPass)
      expect entitlement \(F.monthly)
      expect sk2-unfinished 4
      finish all
      expect sk2-unfinished 0
      entitlements
      latest \(F.coins)
      auto-renew \(F.monthly) off
      advance 40d
      expect no-entitlement \(F.monthly)
      refund \(F.removeAds)
      expect no-entitlement \(F.removeAds)
      latest \(F.removeAds)
      sync
      buy \(F.coins)
      unfinished
      """)
    XCTAssertEqual(outcome, .passed(steps: 24), lines.joined(separator: "\n"))
    let entitlements = lines.filter { $0.contains("Transaction.currentEntitlements:") }
    XCTAssertEqual(entitlements.count, 2, "entitlements, and again after sync")
    XCTAssertTrue(entitlements[0].hasSuffix(
      "\(F.removeAds) (id 1000000001), \(F.seasonPass) (id 1000000003), \(F.monthly) (id 1000000004)"), entitlements[0])
    XCTAssertTrue(entitlements[1].hasSuffix("\(F.seasonPass) (id 1000000003)"), entitlements[1])
    XCTAssertTrue(lines.contains { $0.contains("Transaction.latest(for: \(F.coins)): verified (id 1000000002") })
    XCTAssertTrue(lines.contains { $0.contains("Transaction.latest(for: \(F.removeAds)): verified (id 1000000001") && $0.contains("revoked") })
    XCTAssertTrue(lines.contains { $0.contains("AppStore.sync() returned") })
    XCTAssertFalse(lines.contains { $0.contains("restored") }, "no restored transactions in StoreKit 2")
    XCTAssertTrue(lines.last?.hasSuffix("Transaction.unfinished: \(F.coins) (id ") == false)
    XCTAssertTrue(lines.last?.contains("Transaction.unfinished: \(F.coins) (id 10000000") == true, lines.last ?? "")
  }

  func testB69FailedExpectationsSayWhatHappened() throws {
    let (outcome, _) = try run("account jake\nset dialogs off\nbuy \(F.coins)\nexpect entitlement \(F.coins)\n")
    XCTAssertEqual(outcome, .assertionFailed(line: 4, message: "expected Transaction.currentEntitlements to include \(F.coins), but it does not"))
    let (pending, _) = try run("account jake\nset dialogs off\nset ask-to-buy on\nbuy \(F.coins)\nexpect purchase-result success\n")
    XCTAssertEqual(pending, .assertionFailed(line: 5, message: "expected purchase() of \(F.coins) to end success, but it ended pending"))
    let (none, _) = try run("expect purchase-result success\n")
    XCTAssertEqual(none, .assertionFailed(line: 1, message: "expected a purchase() result, but no purchase() call has returned"))
  }

  func testB9SubscriptionStatusAppTransactionAndManageSubscriptionsCanFail() throws {
    let (outcome, lines) = try run("""
      account jake
      set dialogs off
      buy \(F.monthly)
      subscription-status \(F.monthly)
      subscription-status \(F.group)
      app-transaction
      manage-subscriptions
      fail subscription-status networkError
      fail app-transaction systemError
      fail manage-subscriptions unknown
      subscription-status \(F.yearly)
      app-transaction
      manage-subscriptions
      """, json: true)
    XCTAssertEqual(outcome, .passed(steps: 13), lines.joined(separator: "\n"))
    let events = try objects(lines)
    let statuses = events.filter { $0["event"] as? String == "subscriptionStatus" }
    XCTAssertEqual(statuses.count, 3)
    let first = try XCTUnwrap((statuses[0]["statuses"] as? [[String: Any]])?.first)
    XCTAssertEqual(first["state"] as? String, "subscribed")
    XCTAssertEqual(first["productId"] as? String, F.monthly.rawValue)
    XCTAssertEqual(first["verification"] as? String, "verified")
    XCTAssertNotNil(first["signedTransaction"])
    XCTAssertEqual(statuses[1]["group"] as? String, F.group)
    XCTAssertEqual((statuses[2]["error"] as? [String: Any])?["name"] as? String, "networkError")
    let apps = events.filter { $0["event"] as? String == "appTransaction" }
    XCTAssertEqual(apps.first?["bundleId"] as? String, "com.example.storefront")
    XCTAssertEqual(apps.first?["environment"] as? String, "Sandbox")
    XCTAssertEqual((apps.last?["error"] as? [String: Any])?["name"] as? String, "systemError")
    let manage = events.filter { $0["event"] as? String == "manageSubscriptions" }
    XCTAssertNil(manage.first?["error"])
    XCTAssertEqual((manage.last?["error"] as? [String: Any])?["type"] as? String, "StoreKitError")
  }

  func testB9SubscriptionStatusNeedsASubscriptionOrGroup() throws {
    let store = try TestStore(account: nil)
    guard case .failure(let issues) = ScenarioParser(catalog: store.queue.catalog).parse("subscription-status \(F.coins)\n") else {
      return XCTFail("parsed")
    }
    XCTAssertEqual(issues.issues.first?.message, "'\(F.coins)' is not an auto-renewable subscription or a subscription group.")
  }

  /// B24 in the StoreKit 2 view: re-buying the active subscription returns `.success` with the
  /// existing transaction (StoreKit 1 fails it); B12: a declined Ask to Buy shows nothing at all.
  func testB24ReBuyingTheActiveSubscriptionReturnsTheExistingTransaction() throws {
    let (outcome, lines) = try run("""
      account jake
      buy \(F.monthly)
      confirm
      buy \(F.monthly)
      expect purchase-result last success
      set ask-to-buy on
      buy \(F.coins)
      confirm
      decline last
      expect purchase-result pending
      expect updates 0
      """, json: true)
    XCTAssertEqual(outcome, .passed(steps: 11), lines.joined(separator: "\n"))
    let results = try objects(lines).filter { $0["event"] as? String == "purchaseResult" }
    XCTAssertEqual(results.count, 3)
    XCTAssertEqual(results[1]["transactionId"] as? String, results[0]["transactionId"] as? String, "the existing transaction")
  }
}
