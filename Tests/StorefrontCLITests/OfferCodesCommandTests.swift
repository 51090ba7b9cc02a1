import Foundation
import XCTest

/// `storefront offer-codes generate|create|list` (B87), in-process, on a fresh SQLite ledger each.
final class OfferCodesCommandTests: XCTestCase {
  static let shopping = "com.jake.sample.ExInAppPurchase.shopping"
  static let coins = "com.jake.sample.ExInAppPurchase.coins100"

  func testCodesAreGeneratedCreatedListedAndKeptInTheLedger() throws {
    let data = try CLIFiles.temporaryDirectory(self).path
    let generated = CLIRun(["offer-codes", "generate", Self.shopping, "launch", "--count", "3", "--expires", "30d", "--data-dir", data])
    XCTAssertEqual(generated.code, 0, generated.errorOutput)
    let codes = generated.output.split(separator: "\n").map(String.init)
    XCTAssertEqual(codes.count, 3)
    XCTAssertTrue(codes.allSatisfy { $0.count == 16 }, generated.output)
    // The store's seeded generator: the same codes on another fresh data directory.
    let other = try CLIFiles.temporaryDirectory(self).path
    XCTAssertEqual(
      CLIRun(["offer-codes", "generate", Self.shopping, "launch", "--count", "3", "--expires", "30d", "--data-dir", other]).output,
      generated.output)

    let created = CLIRun(["offer-codes", "create", "Spring25", Self.coins, "spring", "--limit", "2", "--price", "0.99", "--data-dir", data])
    XCTAssertEqual(created.code, 0, created.errorOutput)
    XCTAssertEqual(created.output, "SPRING25  custom  \(Self.coins)  spring  0/2 redeemed  no expiry  price 0.99\n")

    let list = CLIRun(["offer-codes", "list", "--urls", "--app-id", "123", "--data-dir", data])
    XCTAssertEqual(list.code, 0, list.errorOutput)
    let lines = list.output.split(separator: "\n")
    XCTAssertEqual(lines.count, 4, list.output)
    XCTAssertTrue(list.output.contains("https://apps.apple.com/redeem?ctx=offercodes&id=123&code=SPRING25"), list.output)
    XCTAssertTrue(list.output.contains("\(codes[0])  one-time  \(Self.shopping)  launch  0/1 redeemed  expires 2026-01-31T00:00:00Z"), list.output)

    let json = CLIRun(["offer-codes", "list", Self.coins, "--json", "--data-dir", data])
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], json.output)
    XCTAssertEqual(object["code"] as? String, "SPRING25")
    XCTAssertEqual(object["limit"] as? Int, 2)
    XCTAssertEqual(object["redemptions"] as? Int, 0)
    XCTAssertEqual(object["price"] as? String, "0.99")
  }

  func testGroupHelpSaysWhatTheGroupIsFor() {
    let run = CLIRun(["offer-codes", "--help"])
    XCTAssertEqual(run.code, 0)
    XCTAssertTrue(run.output.hasPrefix("OVERVIEW: Make and list offer codes, as App Store Connect does"), run.output)
    for name in ["generate", "create", "list"] { XCTAssertTrue(run.output.contains("  \(name) "), run.output) }
  }

  func testBadRequestsSayWhatToChange() throws {
    let data = try CLIFiles.temporaryDirectory(self).path
    XCTAssertEqual(CLIRun(["offer-codes", "create", "ONCE", Self.coins, "a", "--data-dir", data]).code, 0)
    let cases: [([String], Int32, String)] = [
      (["create", "once", Self.coins, "a"], 65, "the code ONCE exists already; choose another name"),
      (["generate", "com.jake.sample.ExInAppPurchase.premium.monthly", "summer"], 65, "has no code offer 'summer'"),
      (["generate", Self.shopping, "launch", "--expires", "200d"], 65, "one-time codes expire at most six months after they are made"),
      (["generate", Self.shopping, "launch", "--count", "0"], 64, "Invalid --count '0'"),
      (["generate", Self.shopping, "launch", "--expires", "soon"], 64, "Invalid --expires 'soon'"),
      (["create", "SPRING 25", Self.coins, "a"], 65, "a custom code is 1 to 64 letters and digits"),
      (["generate", Self.shopping], 64, "Give the product id and the offer"),
    ]
    for (arguments, code, message) in cases {
      let run = CLIRun(["offer-codes"] + arguments + ["--data-dir", data])
      XCTAssertEqual(run.code, code, "\(arguments): \(run.errorOutput)")
      XCTAssertTrue(run.errorOutput.contains(message), "\(arguments): \(run.errorOutput)")
    }
    XCTAssertEqual(CLIRun(["offer-codes", "list", "--data-dir", data]).output.split(separator: "\n").count, 1)
  }
}
