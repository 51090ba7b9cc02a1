import Foundation
import StoreEngine
import StoreTUI
import XCTest

@testable import StorefrontCLI

/// `catalog check` and `catalog show`, in-process: exit codes and messages.
final class CatalogCommandTests: XCTestCase {
  func testCheckValidFilesExitsZero() {
    let run = CLIRun(["catalog", "check", CLIFiles.fixture("format-1.0.storekit"), CLIFiles.fixture("format-5.0.storekit")])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertEqual(run.output, """
      \(CLIFiles.fixture("format-1.0.storekit")): OK (format 1.0, 4 products, 1 subscription group)
      \(CLIFiles.fixture("format-5.0.storekit")): OK (format 5.0, 5 products, 1 subscription group, 1 with monthly billing plans)

      """)
    XCTAssertEqual(run.errorOutput, "")
  }

  func testCheckInvalidFileExits65WithEveryLocatedProblem() {
    let path = CLIFiles.fixture("invalid-many-problems.storekit")
    let run = CLIRun(["catalog", "check", path])
    XCTAssertEqual(run.code, 65)
    let located = run.errorOutput.split(separator: "\n").filter { $0.hasPrefix(path + ":") && !$0.hasPrefix(path + ": ") }
    XCTAssertEqual(located.map { String($0.dropFirst(path.count)) }, [
      ":4:24: products[0].displayPrice: '1,999' is not a price: its comma could separate decimals or group thousands",
      ":13:21: products[1].productID: duplicate product ID 'dup.id' (first at line 8)",
      ":14:16: products[1].type: unknown product type 'Consumabel'",
      ":16:5: products[2]: missing required field 'productID'",
      ":34:43: subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod: 'P1Month' is not an ISO 8601 subscription period",
    ])
    XCTAssertTrue(run.errorOutput.contains("  hint: did you mean 'Consumable'?"))
    XCTAssertTrue(run.errorOutput.hasSuffix("\(path): 5 problems; the catalog was not loaded. Fix them and run 'storefront catalog check \(path)' again.\n"))
  }

  func testNewUserTriesAWrongPath() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let real = directory.appendingPathComponent("Store.storekit")
    try Data(contentsOf: URL(fileURLWithPath: CLIFiles.fixture("format-4.0.storekit"))).write(to: real)
    let typo = directory.appendingPathComponent("Stor.storekit").path
    let run = CLIRun(["catalog", "check", typo])
    XCTAssertEqual(run.code, 66)
    XCTAssertTrue(run.errorOutput.hasPrefix("Error: No catalog at '\(typo)'. Did you mean '\(real.path)'?"), run.errorOutput)
    XCTAssertEqual(CLIRun(["catalog", "show", "/no/such/file.storekit"]).code, 66)
  }

  func testNewUserPassesADirectory() throws {
    let folder = CLIFiles.packageRoot.appendingPathComponent("Catalog").path
    let run = CLIRun(["catalog", "check", folder])
    XCTAssertEqual(run.code, 66)
    XCTAssertEqual(run.errorOutput, "Error: '\(folder)' is a directory, not a .storekit file. Pass a file inside it, e.g. '\(folder)/Default.storekit'.\n")
  }

  func testNewUserDeletesOneCommaInASharedSample() throws {
    let sample = CLIFiles.sharedSamples.appendingPathComponent("revenuecat_v4.0_all-settings-keys_consumable_nonconsumable_subs.storekit")
    try XCTSkipUnless(FileManager.default.fileExists(atPath: sample.path))
    var text = try String(contentsOf: sample, encoding: .utf8)
    let comma = try XCTUnwrap(text.range(of: "\"familyShareable\" : false,"))
    text.replaceSubrange(comma, with: "\"familyShareable\" : false")
    let line = text[..<comma.lowerBound].filter { $0 == "\n" }.count + 1
    let broken = try CLIFiles.temporaryDirectory(self).appendingPathComponent("broken.storekit")
    try Data(text.utf8).write(to: broken)
    let run = CLIRun(["catalog", "check", broken.path])
    XCTAssertEqual(run.code, 65)
    XCTAssertTrue(run.errorOutput.hasPrefix("\(broken.path):\(line):32: malformed JSON: missing ',' between two members\n  hint: add a ',' here"), run.errorOutput)
  }

  func testCheckReportsMissingOverInvalidAndNeedsAPath() {
    let run = CLIRun(["catalog", "check", CLIFiles.fixture("empty.storekit"), "/missing.storekit", CLIFiles.fixture("latin1.storekit")])
    XCTAssertEqual(run.code, 66)
    XCTAssertTrue(run.errorOutput.contains("empty.storekit:1:1: the file is empty"))
    XCTAssertTrue(run.errorOutput.contains("latin1.storekit:8:31: invalid UTF-8"))
    let none = CLIRun(["catalog", "check"])
    XCTAssertEqual(none.code, 64)
    XCTAssertTrue(none.errorOutput.hasPrefix("Error: Missing expected argument 'PATH...'"), none.errorOutput)
    XCTAssertEqual(CLIRun(["--catalog", CLIFiles.fixture("format-3.0.storekit"), "catalog", "check"]).code, 0)
  }

  func testShowBuiltInCatalogTable() {
    let run = CLIRun(["catalog", "show"])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertEqual(run.output, """
      Catalog: built-in catalog (Catalog/Default.storekit), format 4.0
      Storefront: USA (United States, USD) · Locale: en_US

      PRODUCT ID                                       TYPE            NAME              PRICE  PERIOD                GROUP
      com.jake.sample.ExInAppPurchase.shopping         non-consumable  Remove Ads        $2.99
      com.jake.sample.ExInAppPurchase.coins100         consumable      100 Coins         $0.99
      com.jake.sample.ExInAppPurchase.coins500         consumable      500 Coins         $3.99
      com.jake.sample.ExInAppPurchase.seasonpass       non-renewing    Season Pass       $9.99
      com.jake.sample.ExInAppPurchase.premium.monthly  subscription    Premium Monthly   $4.99  1 month, 1 week free  Premium · level 2
      com.jake.sample.ExInAppPurchase.premium.yearly   subscription    Premium Yearly   $39.99  1 year, 1 week free   Premium · level 1

      """)
  }

  func testShowAlignsCJKByDisplayWidth() {
    let run = CLIRun(["catalog", "show", "--locale", "ja_JP", "--storefront", "jpn"])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let lines = run.output.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines[1], "Storefront: JPN (Japan, JPY) · Locale: ja_JP")
    let rows = lines.filter { $0.hasPrefix("com.jake") }
    XCTAssertEqual(rows.count, 6)
    XCTAssertTrue(rows[0].contains("広告の削除"))
    // Every row's PRICE column ends at the same display column.
    let header = lines.first { $0.hasPrefix("PRODUCT ID") } ?? ""
    let priceEnd = header.range(of: "PRICE").map { String(header[..<$0.upperBound]).displayWidth } ?? 0
    for row in rows {
      let price = row.range(of: "¥").map { row[$0.lowerBound...].prefix { !$0.isWhitespace } } ?? ""
      let end = row.range(of: String(price)).map { String(row[..<$0.upperBound]).displayWidth } ?? -1
      XCTAssertEqual(end, priceEnd, row)
    }
    XCTAssertTrue(rows[0].contains("¥3"), "JPY has no fraction digits: \(rows[0])")
  }

  func testShowJSON() throws {
    let run = CLIRun(["catalog", "show", "--json", "--locale", "ko_KR", "--storefront", "KOR"])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    XCTAssertEqual(document["storefront"] as? String, "KOR")
    XCTAssertEqual(document["currency"] as? String, "KRW")
    XCTAssertEqual(document["locale"] as? String, "ko_KR")
    let products = try XCTUnwrap(document["products"] as? [[String: Any]])
    XCTAssertEqual(products.count, 6)
    let removeAds = products[0]
    XCTAssertEqual(removeAds["id"] as? String, "com.jake.sample.ExInAppPurchase.shopping")
    XCTAssertEqual(removeAds["type"] as? String, "NonConsumable")
    XCTAssertEqual(removeAds["name"] as? String, "광고 제거")
    XCTAssertEqual(removeAds["localization"] as? String, "ko")
    // B61: the won has no minor unit; the listing shows the price the store charges.
    XCTAssertEqual(removeAds["price"] as? String, "3")
    XCTAssertEqual(removeAds["formattedPrice"] as? String, "₩3")
    XCTAssertTrue(removeAds["subscriptionPeriod"] is NSNull)
    let yearly = products[5]
    XCTAssertEqual(yearly["subscriptionPeriod"] as? String, "P1Y")
    let group = try XCTUnwrap(yearly["subscriptionGroup"] as? [String: Any])
    XCTAssertEqual(group["name"] as? String, "프리미엄")
    XCTAssertEqual(group["level"] as? Int, 1)
    XCTAssertEqual((yearly["introductoryOffer"] as? [String: Any])?["paymentMode"] as? String, "free")
  }

  func testShowUsesThePathThenCatalogOptionThenTheCatalogsSettings() throws {
    let path = CLIFiles.fixture("format-2.0.storekit")
    let run = CLIRun(["catalog", "show", path, "--json"])
    let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    XCTAssertEqual(document["storefront"] as? String, "KOR", "the file's _storefront")
    XCTAssertEqual(document["locale"] as? String, "ko_KR", "the file's _locale")
    XCTAssertEqual(document["catalog"] as? String, path)
    let viaOption = CLIRun(["--catalog", path, "catalog", "show"])
    XCTAssertTrue(viaOption.output.hasPrefix("Catalog: \(path), format 2.0\n"), viaOption.output)
    XCTAssertTrue(viaOption.output.contains("코인"))
  }

  func testShowRejectsBadOptionValues() {
    let badStorefront = CLIRun(["catalog", "show", "--storefront", "KRO"])
    XCTAssertEqual(badStorefront.code, 64)
    XCTAssertTrue(badStorefront.errorOutput.hasPrefix("Error: The value 'KRO' is invalid for '--storefront <code>': not an App Store storefront. Did you mean 'KOR' (Korea, Republic of)?"), badStorefront.errorOutput)
    XCTAssertEqual(CLIRun(["catalog", "show", "a", "b"]).code, 64)
    let invalid = CLIRun(["catalog", "show", CLIFiles.fixture("truncated.storekit")])
    XCTAssertEqual(invalid.code, 65)
    XCTAssertEqual(invalid.output, "")
  }

  func testEmbeddedDefaultCatalogMatchesTheFile() throws {
    let file = try Data(contentsOf: CLIFiles.packageRoot.appendingPathComponent("Catalog/Default.storekit"))
    XCTAssertEqual(Data(DefaultCatalog.text.utf8), file, "run scripts/embed-default-catalog after editing Catalog/Default.storekit")
  }
}
