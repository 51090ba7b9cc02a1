import Foundation
import XCTest

/// `catalog check` and `catalog show` on format 6.x files, warnings, whole-unit prices (B61) and
/// storefront codes (B63).
final class CatalogFormat6CommandTests: XCTestCase {
  private let fixture = CLIFiles.fixture("format-6.3.storekit")

  /// The 6.3 fixture with `edit` applied, written to a temporary file.
  private func variant(_ name: String, _ edit: (String) -> String) throws -> String {
    let text = try String(contentsOfFile: fixture, encoding: .utf8)
    let url = try CLIFiles.temporaryDirectory(self).appendingPathComponent(name)
    try edit(text).write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  func testFormat6CheckSummarizesBundleSuiteGroupsAndBillingPlans() {
    let run = CLIRun(["catalog", "check", fixture])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertEqual(run.output, "\(fixture): OK (format 6.3, 8 products, 2 subscription groups, 1 bundle group, 1 suite group, 2 with monthly billing plans)\n")
    XCTAssertEqual(run.errorOutput, "")
  }

  func testFormat6ShowListsBundlesSuitesAndBillingPlans() {
    let run = CLIRun(["catalog", "show", fixture])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let lines = run.output.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines.contains { $0.hasPrefix("fixture.v63.bundle.monthly  bundle ") }, run.output)
    XCTAssertTrue(lines.contains { $0.hasPrefix("fixture.v63.suite.yearly    suite ") }, run.output)
    XCTAssertTrue(run.output.hasSuffix("""

      Bundles and suites:
        fixture.v63.bundle.monthly (Creator Bundle) includes Photo Pro Monthly, Video Pro Monthly
        fixture.v63.suite.yearly (Studio Suite) includes Studio Editor, Studio Cloud (sold only in the suite)

      Billing plans:
        fixture.v63.photo.yearly: up front $39.99; monthly $3.99 with a 12-month commitment ($47.88)
        fixture.v63.suite.yearly: up front $99.99; monthly $8.99 with a 12-month commitment ($107.88)

      """), run.output)
  }

  func testFormat6ShowJSONCarriesGroupKindBillingPlansAndBundledSubscriptions() throws {
    let run = CLIRun(["catalog", "show", "--json", fixture])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    let products = try XCTUnwrap(document["products"] as? [[String: Any]])
    let bundle = try XCTUnwrap(products.first { $0["id"] as? String == "fixture.v63.bundle.monthly" })
    XCTAssertEqual((bundle["subscriptionGroup"] as? [String: Any])?["kind"] as? String, "bundle")
    let included = try XCTUnwrap(bundle["bundledSubscriptions"] as? [[String: String]])
    XCTAssertEqual(included.map { $0["productId"] }, ["fixture.v63.photo.monthly", "fixture.v63.video.monthly"])
    let yearly = try XCTUnwrap(products.first { $0["id"] as? String == "fixture.v63.photo.yearly" })
    XCTAssertEqual(yearly["billingPlans"] as? [[String: String]], [
      ["billingPlanType": "BILLED_UPFRONT", "price": "39.99", "commitmentPrice": "39.99"],
      ["billingPlanType": "MONTHLY", "price": "3.99", "commitmentPrice": "47.88"],
    ])
    let coins = try XCTUnwrap(products.first { $0["id"] as? String == "fixture.v63.coins" })
    XCTAssertNil(coins["billingPlans"])
  }

  func testFormat6NewerMinorVersionLoadsWithAWarningOnStandardError() throws {
    let path = try variant("newer.storekit") { $0.replacingOccurrences(of: "\"minor\" : 3", with: "\"minor\" : 9") }
    for command in [["catalog", "check", path], ["catalog", "show", path]] {
      let run = CLIRun(command)
      XCTAssertEqual(run.code, 0, run.errorOutput)
      XCTAssertTrue(run.errorOutput.hasPrefix("\(path):"), run.errorOutput)
      XCTAssertTrue(run.errorOutput.contains(":15: warning: version: format version 6.9 is newer than this storefront knows (6.3); read as 6.3, keys it does not know are ignored\n  hint: "), run.errorOutput)
    }
    XCTAssertTrue(CLIRun(["catalog", "check", path]).output.hasSuffix(", 1 warning)\n"))
  }

  func testFormat6NewerMajorVersionIsRefused() throws {
    let path = try variant("major.storekit") { $0.replacingOccurrences(of: "\"major\" : 6", with: "\"major\" : 7") }
    let run = CLIRun(["catalog", "check", path])
    XCTAssertEqual(run.code, 65)
    XCTAssertTrue(run.errorOutput.contains(": version: format version 7.3 is not supported; this storefront reads formats 1.0 through 6.x\n"), run.errorOutput)
  }

  func testDecimalCommaCheckWarnsWithFileAndLineAndExitsZero() throws {
    let path = try variant("comma.storekit") { $0.replacingOccurrences(of: "\"displayPrice\" : \"0.99\"", with: "\"displayPrice\" : \"0,99\"") }
    let run = CLIRun(["catalog", "check", path])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertEqual(run.errorOutput, """
      \(path):37:24: warning: products[0].displayPrice: '0,99' has a decimal comma; read as 0.99
        hint: write "0.99": Xcode writes prices with a dot

      """)
  }

  func testB61ShowInTheKoreanStorefrontListsWholeWon() {
    let run = CLIRun(["catalog", "show", fixture, "--storefront", "KOR"])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertTrue(run.output.contains("fixture.v63.photo.yearly    subscription    Photo Pro Yearly     ₩40"), run.output)
    XCTAssertTrue(run.output.contains("up front ₩40; monthly ₩4 with a 12-month commitment (₩48)"), run.output)
  }

  func testB63StorefrontOptionListsNearMatches() {
    let run = CLIRun(["catalog", "show", "--storefront", "USB"])
    XCTAssertEqual(run.code, 64)
    XCTAssertTrue(run.errorOutput.hasPrefix("Error: The value 'USB' is invalid for '--storefront <code>': not an App Store storefront. Did you mean 'USA' (United States) or 'UZB' (Uzbekistan)?"), run.errorOutput)
    XCTAssertEqual(CLIRun(["catalog", "show", "--storefront", "usa"]).code, 0)
  }
}
