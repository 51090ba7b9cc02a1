import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Buying a subscription bundle through a real terminal (DECISIONS §47): the sheet names what the
/// bundle includes, and the Transactions pane lists each included subscription's transaction under
/// the bundle's.
final class BundleTerminalTests: XCTestCase {
  func testBuyingABundleShowsWhatItIncludesAndItsComponentTransactions() throws {
    let fixture = StorefrontBinary.packageRoot.appendingPathComponent("Tests/Fixtures/format-6.3.storekit")
    let session = try TmuxSession(width: 120, height: 32)
    try session.launch("--catalog \(fixture.path) --account mina")
    try session.waitFor("[ Restore Purchases ]")
    try session.waitFor("Creator Bundle")
    // Coins, Pro, Season, Photo Pro Monthly, Photo Pro Yearly, Video Pro Monthly, then the bundle.
    for _ in 0..<6 { try session.send("Down") }
    try session.send("Enter")
    try session.waitFor("Subscribe to Creator Bundle?")
    try session.waitFor("Includes: Photo Pro Monthly, Video Pro Monthly.")
    try session.send("Enter")
    try session.waitUntil("the bundle and its two components in the ledger", timeout: 10) {
      try session.ledger().filter { ($0["state"] as? String) == "purchased" }.count == 3
    }
    try session.send("2")
    try session.waitFor("└ Photo Pro Monthly (in Creator Bundle)")
    try session.waitFor("└ Video Pro Monthly (in Creator Bundle)")
    let lines = try session.screen().split(separator: "\n").map(String.init)
    let bundleRow = try XCTUnwrap(lines.firstIndex { $0.contains("Creator Bundle") && !$0.contains("└") })
    let photoRow = try XCTUnwrap(lines.firstIndex { $0.contains("└ Photo Pro Monthly") })
    XCTAssertEqual(photoRow, bundleRow + 1, "the component sits under its bundle:\n\(lines.joined(separator: "\n"))")
    try session.send("q")
    try session.waitFor("EXIT=0")
  }
}
