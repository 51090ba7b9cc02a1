import Foundation
import SQLiteLedger
import StoreEngine
import XCTest

@testable import StorefrontCLI

/// `storefront transactions`, in-process: the ledger of a data directory, read-only.
final class TransactionsCommandTests: XCTestCase {
  static let coins = "com.jake.sample.ExInAppPurchase.coins100"
  static let shopping = "com.jake.sample.ExInAppPurchase.shopping"

  func testHelpDescribesEveryOption() {
    let run = CLIRun(["transactions", "--help"])
    XCTAssertEqual(run.code, 0)
    XCTAssertTrue(run.output.contains("USAGE: storefront transactions [--json] [--account <name>] [--all]"), run.output)
    for option in ["--json", "--all", "--account <name>", "--data-dir <dir>"] {
      XCTAssertTrue(run.output.contains("  \(option) "), option)
    }
    XCTAssertFalse(run.output.contains("not available"))
  }

  func testNoLedgerExits66NamingThePathAndCreatesNothing() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("fresh").path
    let run = CLIRun(["transactions", "--data-dir", data])
    XCTAssertEqual(run.code, 66)
    XCTAssertTrue(run.errorOutput.hasPrefix("No ledger at '\(data)/\(SQLiteLedgerStore.fileName)' yet"), run.errorOutput)
    XCTAssertTrue(run.errorOutput.contains("--data-dir"), "the message says what to do")
    XCTAssertEqual(run.output, "")
    XCTAssertFalse(FileManager.default.fileExists(atPath: data))
    // The default data directory comes from the environment.
    let fromEnvironment = CLIRun(["transactions"], environment: ["STOREFRONT_DATA_DIR": data])
    XCTAssertEqual(fromEnvironment.code, 66)
    XCTAssertTrue(fromEnvironment.errorOutput.contains("'\(data)/\(SQLiteLedgerStore.fileName)'"), fromEnvironment.errorOutput)
  }

  func testOperandIsAUsageError() {
    let run = CLIRun(["transactions", "everything"])
    XCTAssertEqual(run.code, 64)
    XCTAssertTrue(run.errorOutput.contains("Unexpected argument 'everything': transactions takes no operands."), run.errorOutput)
  }

  func testListsTheCurrentAccountAnotherAccountOrAll() throws {
    let data = try ledgerWithTwoAccounts()

    let current = CLIRun(["transactions", "--json", "--data-dir", data])
    XCTAssertEqual(current.code, 0, current.errorOutput)
    let mine = try objects(current.output)
    XCTAssertEqual(mine.map { $0["account"] as? String }, ["bea", "bea"], "the account signed in last is the default")
    XCTAssertEqual(mine.map { $0["productId"] as? String }, [Self.coins, Self.coins])
    XCTAssertEqual(mine.map { $0["finished"] as? Bool }, [true, false])
    XCTAssertEqual(mine.first?["price"] as? String, "1.98", "quantity 2 of 0.99")
    XCTAssertEqual(mine.first?["currency"] as? String, "USD")

    let other = try objects(CLIRun(["transactions", "--json", "--account", "al", "--data-dir", data]).output)
    XCTAssertEqual(other.map { $0["productId"] as? String }, [Self.shopping])
    XCTAssertNotNil(other.first?["signedTransaction"] as? String)

    let all = try objects(CLIRun(["transactions", "--json", "--all", "--data-dir", data]).output)
    XCTAssertEqual(all.map { $0["account"] as? String }, ["al", "bea", "bea"], "oldest first")
    XCTAssertEqual(Set(all.compactMap { $0["transactionId"] as? String }).count, 3)

    let nobody = CLIRun(["transactions", "--account", "zed", "--data-dir", data])
    XCTAssertEqual(nobody.code, 0)
    XCTAssertEqual(nobody.output, "Account: zed — 0 transactions in \(data)/\(SQLiteLedgerStore.fileName)\n")
  }

  func testTableShowsStateFinishedAndFailures() throws {
    let data = try ledgerWithTwoAccounts()
    let run = CLIRun(["transactions", "--all", "--data-dir", data])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let lines = run.output.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "All accounts — 3 transactions in \(data)/\(SQLiteLedgerStore.fileName)")
    XCTAssertEqual(lines.dropFirst().first?.split(separator: " ", omittingEmptySubsequences: true),
      ["ID", "ORIGINAL", "PRODUCT", "STATE", "QTY", "PURCHASED", "EXPIRES", "FINISHED"])
    XCTAssertEqual(lines.count, 5)
    XCTAssertTrue(lines[2].contains(Self.shopping) && lines[2].hasSuffix("yes"), lines[2])
    XCTAssertTrue(lines[4].contains("failed paymentCancelled") && lines[4].hasSuffix("no"), lines[4])
    // Columns line up: every row's PRODUCT starts where the header's does.
    let column = try XCTUnwrap(lines[1].range(of: "PRODUCT")).lowerBound.utf16Offset(in: lines[1])
    for row in lines[2...] {
      XCTAssertEqual(try XCTUnwrap(row.range(of: "com.jake")).lowerBound.utf16Offset(in: row), column, row)
    }
  }

  func testListingChangesNothing() throws {
    let data = try ledgerWithTwoAccounts()
    let ledger = URL(fileURLWithPath: data).appendingPathComponent(SQLiteLedgerStore.fileName)
    let before = try Data(contentsOf: ledger)
    let first = CLIRun(["transactions", "--all", "--json", "--data-dir", data])
    let second = CLIRun(["transactions", "--all", "--json", "--data-dir", data])
    XCTAssertEqual(first.output, second.output)
    XCTAssertEqual(try Data(contentsOf: ledger), before, "transactions must not write to the ledger")
  }

  /// al bought (and finished) shopping; then bea bought 2 coins (finished) and cancelled a third.
  func testB40JSONShowsTheCurrentRenewalInfoNotTheOneSignedAtPurchase() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let script = directory.appendingPathComponent("off.scenario")
    let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"
    try Data("""
      set dialogs off
      account al
      buy \(monthly)
      auto-renew last off

      """.utf8).write(to: script)
    XCTAssertEqual(CLIRun(["run", script.path, "--data-dir", data]).code, 0)
    let rows = try objects(CLIRun(["transactions", "--json", "--data-dir", data]).output)
    let info = try XCTUnwrap(rows.last?["signedRenewalInfo"] as? String)
    let payload = try XCTUnwrap(info.split(separator: ".").dropFirst().first.flatMap { Data(base64URLEncoded: $0) })
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: payload) as? [String: Any])
    XCTAssertEqual(object["autoRenewStatus"] as? Int, 0)
  }

  /// A listing longer than a page (it is read a page at a time): every row once, in order, the
  /// table's columns as wide as their widest cell on any page, and only the chain's newest period
  /// (on the last page) with the record's current renewal info.
  func testAListingLongerThanAPageIsWholeAndAligned() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let count = HistoryWalk.pageSize * 2 + 5
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    var changes: [LedgerChange] = [.putAccount(SandboxAccount(name: "bea")), .setCurrentAccount("bea")]
    for index in 0..<count {
      var transaction = PaymentTransaction(
        id: .init(UInt64(1_000 + index)), originalID: .init(1_000), account: "bea",
        productID: Product.ID(index == HistoryWalk.pageSize + 3 ? "com.example.a.much.longer.product.identifier" : "monthly"),
        productKind: .autoRenewableSubscription, state: .purchased, purchaseDate: start.addingTimeInterval(Double(index) * 60),
        price: 1)
      transaction.expiresDate = transaction.purchaseDate.addingTimeInterval(60)
      transaction.signedRenewalInfo = "signed.at.purchase"
      transaction.isFinished = true
      changes.append(.putTransaction(transaction))
    }
    var record = SubscriptionRecord(
      originalID: .init(1_000), account: "bea", groupID: "group", productID: "monthly", renewalProductID: "monthly",
      autoRenew: true, status: .subscribed, expiresDate: start.addingTimeInterval(Double(count) * 60), renewalCount: count - 1,
      gracePeriodExpiresDate: nil, expirationIntent: nil, priceIncreasePending: false, webOrderLineItemID: 1)
    record.signedRenewalInfo = "current.renewal.info"
    changes.append(.putSubscription(record))
    do {
      let ledger = try SQLiteLedgerStore(directory: directory)
      try ledger.commit(changes)
      ledger.close()
    }
    let table = CLIRun(["transactions", "--data-dir", directory.path])
    XCTAssertEqual(table.code, 0, table.errorOutput)
    let lines = table.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    XCTAssertEqual(lines.count, count + 2)
    XCTAssertTrue(lines[0].hasPrefix("Account: bea — \(count) transactions in "), lines[0])
    let header = try XCTUnwrap(lines.dropFirst().first)
    let finishedColumn = try XCTUnwrap(header.range(of: "FINISHED")).lowerBound.utf16Offset(in: header)
    for line in lines.dropFirst(2) {
      XCTAssertEqual(line.utf16.count, finishedColumn + 3, "every row's last column starts under FINISHED: \(line)")
    }
    XCTAssertEqual(lines.dropFirst(2).map { $0.split(separator: " ")[0] }, (0..<count).map { "\(1_000 + $0)"[...] })

    let json = CLIRun(["transactions", "--json", "--data-dir", directory.path])
    let rows = try objects(json.output)
    XCTAssertEqual(rows.count, count)
    XCTAssertEqual(rows.compactMap { $0["signedRenewalInfo"] as? String }.filter { $0 == "current.renewal.info" }.count, 1)
    XCTAssertEqual(rows.last?["signedRenewalInfo"] as? String, "current.renewal.info")
  }

  private func ledgerWithTwoAccounts() throws -> String {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let script = directory.appendingPathComponent("two.scenario")
    try Data("""
      set dialogs off
      account al
      buy \(Self.shopping)
      finish last
      account bea
      buy \(Self.coins) quantity=2
      finish last
      set dialogs on
      buy \(Self.coins)
      cancel
      expect state last failed

      """.utf8).write(to: script)
    let run = CLIRun(["run", script.path, "--data-dir", data])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    return data
  }

  private func objects(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
    }
  }
}
