import Foundation
import StorefrontProcessTestSupport
import XCTest

/// The SQLite ledger across separate processes (issue 3): unfinished transactions survive and are
/// redelivered at launch until finished; nothing is granted twice.
final class PersistenceTests: XCTestCase {
  static let coins500 = "com.jake.sample.ExInAppPurchase.coins500"

  func testUnfinishedPurchaseSurvivesTheProcessAndIsRedeliveredUntilFinished() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let buy = try directory.write(
      "1-buy.scenario",
      """
      account jake
      set dialogs off
      buy \(Self.coins500)
      expect state last purchased
      expect unfinished 1
      """)
    let first = try StorefrontBinary.run(["run", buy, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(first.status, 0, first.summary)
    let bought = try XCTUnwrap(EventLine.parse(first.stdout, source: "process 1").last { $0.state == "purchased" })
    let id = try XCTUnwrap(bought.transactionID)

    let finish = try directory.write(
      "2-finish.scenario",
      """
      expect account jake
      expect unfinished 1
      expect state last purchased
      finish last
      expect unfinished 0
      """)
    let second = try StorefrontBinary.run(["run", finish, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(second.status, 0, second.summary)
    let events = EventLine.parse(second.stdout, source: "process 2")
    // Relaunch redelivery comes first, before any scenario line ran (so it carries no line number).
    let redelivered = try XCTUnwrap(events.first)
    XCTAssertEqual(redelivered.event, "transactionUpdated")
    XCTAssertEqual(redelivered.transactionID, id)
    XCTAssertEqual(redelivered.state, "purchased")
    XCTAssertNil(redelivered.scenarioLine)
    XCTAssertTrue(
      redelivered.object["signedTransaction"] as? String == bought.object["signedTransaction"] as? String,
      "the redelivered transaction must carry the JWS signed when it was bought")
    XCTAssertEqual(events.filter { $0.event == "transactionRemoved" }.map(\.transactionID), [id])
    XCTAssertEqual(events.compactMap { $0.object["error"] as? String }, [], "API misuse reported")

    let check = try directory.write(
      "3-check.scenario", "expect unfinished 0\nexpect quantity \(Self.coins500) 1\nexpect transactions 1\n")
    let third = try StorefrontBinary.run(["run", check, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(third.status, 0, third.summary)
    XCTAssertEqual(EventLine.parse(third.stdout, source: "process 3").map(\.event), [], "a finished transaction must not be redelivered")

    let listed = try StorefrontBinary.run(["transactions", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(listed.status, 0, listed.summary)
    let rows = EventLine.parse(listed.stdout, source: "transactions")
    XCTAssertEqual(rows.count, 1)
    XCTAssertEqual(rows.first?.transactionID, id)
    XCTAssertEqual(rows.first?.productID, Self.coins500)
    XCTAssertEqual(rows.first?.state, "purchased")
    XCTAssertEqual(rows.first?.object["finished"] as? Bool, true)
    XCTAssertEqual(rows.first?.object["account"] as? String, "jake")

    let table = try StorefrontBinary.run(["transactions", "--data-dir", data], in: directory)
    XCTAssertEqual(table.status, 0, table.summary)
    XCTAssertTrue(table.lines.first?.hasPrefix("Account: jake — 1 transaction in ") ?? false, table.stdout)
    XCTAssertTrue(table.lines.contains { $0.hasPrefix(id) && $0.contains(Self.coins500) && $0.hasSuffix("yes") }, table.stdout)
  }

  func testEachLaunchRedeliversAndNothingIsStoredTwice() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let buy = try directory.write("buy.scenario", "account kim\nset dialogs off\nbuy \(Self.coins500) quantity=3\n")
    XCTAssertEqual(try StorefrontBinary.run(["run", buy, "--data-dir", data], in: directory).status, 0)
    let look = try directory.write("look.scenario", "expect unfinished 1\nexpect transactions 1\nexpect quantity \(Self.coins500) 3\n")
    for launch in 1...3 {
      let result = try StorefrontBinary.run(["run", look, "--json", "--data-dir", data], in: directory)
      XCTAssertEqual(result.status, 0, "launch \(launch): \(result.summary)")
      let events = EventLine.parse(result.stdout, source: "launch \(launch)")
      XCTAssertEqual(events.map { $0.event ?? "" }, ["transactionUpdated"], "launch \(launch) redelivers exactly once")
      XCTAssertEqual(events.first?.object["quantity"] as? Int, 3)
    }
    let listed = try StorefrontBinary.run(["transactions", "--all", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(EventLine.parse(listed.stdout, source: "transactions").count, 1)
  }

  func testFinishingInALaterProcessIsIdempotent() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let buy = try directory.write("buy.scenario", "account lee\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.shopping\nfinish last\n")
    XCTAssertEqual(try StorefrontBinary.run(["run", buy, "--data-dir", data], in: directory).status, 0)
    let before = try StorefrontBinary.run(["transactions", "--json", "--data-dir", data], in: directory)
    let id = try XCTUnwrap(EventLine.parse(before.stdout, source: "before").first?.transactionID)

    // Finishing the same transaction again, by id, in a new process changes nothing and says so.
    let again = try directory.write("again.scenario", "finish \(id)\nexpect misuse alreadyFinished\nexpect owned com.jake.sample.ExInAppPurchase.shopping\n")
    let result = try StorefrontBinary.run(["run", again, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(result.status, 0, result.summary)
    XCTAssertEqual(EventLine.parse(result.stdout, source: "again").map { $0.object["error"] as? String }, ["alreadyFinished"])
    // A second purchase of the non-consumable is the "already purchased" path, not a second grant.
    let rebuy = try directory.write(
      "rebuy.scenario", "set dialogs off\nbuy com.jake.sample.ExInAppPurchase.shopping\nexpect state last purchased\nfinish last\nexpect owned com.jake.sample.ExInAppPurchase.shopping\n")
    let rebought = try StorefrontBinary.run(["run", rebuy, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(rebought.status, 0, rebought.summary)
    let purchased = EventLine.parse(rebought.stdout, source: "rebuy").first { $0.state == "purchased" }
    XCTAssertEqual(purchased?.object["originalTransactionId"] as? String, id, "a re-purchase keeps the original transaction id")

    let after = try StorefrontBinary.run(["transactions", "--json", "--data-dir", data], in: directory)
    let rows = EventLine.parse(after.stdout, source: "after")
    XCTAssertEqual(rows.count, 2)
    XCTAssertEqual(Set(rows.compactMap(\.transactionID)).count, 2)
    XCTAssertTrue(rows.allSatisfy { $0.object["finished"] as? Bool == true })
    // Reading the ledger twice gives the same answer: `transactions` changes nothing.
    let reread = try StorefrontBinary.run(["transactions", "--json", "--data-dir", data], in: directory)
    XCTAssertTrue(reread.stdout == after.stdout, "a second `transactions --json` printed something else")
  }

  func testTheVirtualClockContinuesFromTheLedger() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let first = try directory.write("first.scenario", "account tim\nset dialogs off\nadvance P10D\nbuy com.jake.sample.ExInAppPurchase.coins100\nfinish last\n")
    XCTAssertEqual(try StorefrontBinary.run(["run", first, "--data-dir", data], in: directory).status, 0)
    let second = try directory.write("second.scenario", "set dialogs off\nbuy com.jake.sample.ExInAppPurchase.coins100\n")
    let result = try StorefrontBinary.run(["run", second, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(result.status, 0, result.summary)
    let purchased = EventLine.parse(result.stdout, source: "second").first { $0.state == "purchased" }
    XCTAssertEqual(purchased?.object["purchaseDate"] as? String, "2026-01-11T00:00:00Z")
  }
}
