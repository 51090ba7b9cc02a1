import Foundation
import StorefrontProcessTestSupport
import XCTest

/// A yearly subscription bought on its monthly plan in a real terminal (iOS 26.4, DECISIONS §43):
/// `m` on its Store row opens the purchase sheet with the one-time commitment disclosure (12
/// monthly payments of the plan's price and their total); Subscribe charges the first month.
final class CommitmentTerminalTests: XCTestCase {
  static var catalog: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/11-commitment-plan.storekit").path
  }

  func testTheMonthlyPlanSheetDisclosesTheCommitmentAndChargesTheMonth() throws {
    let session = try TmuxSession()
    try session.launch("--catalog \(Self.catalog) --account mina")
    try session.waitFor("Premium Yearly")
    try session.send("End")
    try session.send("m")
    try session.waitFor("12-month commitment: 12 monthly payments")
    let sheet = try session.screen()
    XCTAssertTrue(sheet.contains("£3.99/month."), sheet)
    // The sheet wraps the disclosure at its width.
    XCTAssertTrue(sheet.contains("12 monthly payments of £3.99, £47.88"), sheet)
    XCTAssertTrue(sheet.contains("remaining payments of the commitment"), sheet)
    XCTAssertTrue(sheet.contains("are still charged"), sheet)
    try session.send("Enter")
    try session.waitFor("purchased")
    let listed = try session.storefront(["transactions", "--json"]).output
    XCTAssertTrue(listed.contains("3.99") && !listed.contains("39.99"), "charged the month, not the year: \(listed)")
    try session.send("q")
    try session.waitFor("EXIT=0")
  }
}
