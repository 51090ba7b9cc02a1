import Foundation
import XCTest

/// The interactive storefront, end to end: the real binary in a real (tmux) terminal.
final class StorefrontTerminalTests: XCTestCase {
  private func purchased(_ ledger: [[String: Any]], product: String) -> [[String: Any]] {
    ledger.filter { $0["productId"] as? String == product && $0["state"] as? String == "purchased" }
  }

  private func assertQuitsCleanly(_ session: TmuxSession, file: StaticString = #filePath, line: UInt = #line) throws {
    try session.send("q")
    try session.waitFor("EXIT=0", file: file, line: line)
    try session.waitFor("MODES", file: file, line: line)
    let screen = try session.screen()
    XCTAssertTrue(screen.contains("icanon echo"), "the terminal is not back in cooked mode:\n\(screen)", file: file, line: line)
    XCTAssertEqual(try session.tmux(["display", "-p", "-t", "e2e", "#{alternate_on}"]).trimmingCharacters(in: .whitespacesAndNewlines), "0")
  }

  func testSignInAndBuyTheNonConsumableThroughTheSheet() throws {
    let session = try TmuxSession()
    try session.launch()
    try session.waitFor("[ Restore Purchases ]")
    try session.waitFor("Not signed in")
    try session.send("Enter")  // Remove Ads is the first row
    try session.waitFor("Sign In")
    try session.type("jake")
    try session.send("Tab")
    try session.type("hunter2")
    let masked = try session.screen()
    XCTAssertFalse(masked.contains("hunter2"), "the password is shown in clear:\n\(masked)")
    try session.send("Enter")
    try session.waitFor("Confirm Your In-App Purchase")
    try session.waitFor("Do you want to buy one Remove Ads for $2.99?")
    try session.waitFor("[Environment: Sandbox]")
    try session.send("Enter")
    try session.waitFor("owned")
    try assertQuitsCleanly(session)
    let ledger = try session.ledger()
    XCTAssertEqual(purchased(ledger, product: "com.jake.sample.ExInAppPurchase.shopping").count, 1)
    XCTAssertEqual(ledger.first?["account"] as? String, "jake")
  }

  // B69: the Log pane's `s` shows the same purchase as a StoreKit 2 app's purchase() result.
  func testLogSwitchesToTheStoreKit2View() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("[ Restore Purchases ]")  // drawn by the TUI; the account name is already on screen in the typed command
    try session.send("Enter")  // Remove Ads
    try session.waitFor("Do you want to buy one Remove Ads")
    try session.send("y")
    try session.waitFor("owned")
    try session.send("4")
    try session.waitFor("updatedTransactions: com.jake.sample.ExInAppPurchase.shopping purchased")
    try session.send("s")
    try session.waitFor("StoreKit 2 view:")
    try session.waitFor("purchase(): com.jake.sample.ExInAppPurchase.shopping success verified")
    try session.send("s")
    try session.waitFor("Observer log:")
    try assertQuitsCleanly(session)
  }

  func testBuyAConsumableTwiceAndCancelOnce() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("[ Restore Purchases ]")  // drawn by the TUI; the account name is already on screen in the typed command
    try session.send("Down")  // 100 Coins
    for _ in 0..<2 {
      try session.send("b")
      try session.waitFor("Do you want to buy one 100 Coins")
      try session.send("y")
      try session.waitUntil("the sheet closes", timeout: 10) { !(try session.screen().contains("Do you want to buy")) }
    }
    try session.waitFor("bought ×2")
    try session.send("b")
    try session.waitFor("Do you want to buy one 100 Coins")
    try session.send("Escape")
    try session.waitFor("paymentCancelled")
    try assertQuitsCleanly(session)
    let ledger = try session.ledger()
    XCTAssertEqual(purchased(ledger, product: "com.jake.sample.ExInAppPurchase.coins100").count, 2)
    XCTAssertEqual(ledger.filter { $0["state"] as? String == "failed" }.count, 1)
  }

  func testAskToBuyApprovedFromTheTransactionsPaneThenRestore() throws {
    let session = try TmuxSession()
    try session.launch("--account kid")
    try session.waitFor("[ Restore Purchases ]")  // drawn by the TUI; the account name is already on screen in the typed command
    try session.send("3")  // Settings
    try session.waitFor("Ask to Buy")
    try session.send("Down", "Down", "Enter")  // Account, Sign out, Ask to Buy
    try session.waitUntil("Ask to Buy is on", timeout: 10) {
      try session.screen().split(separator: "\n").contains { $0.contains("Ask to Buy") && $0.contains("on") }
    }
    try session.send("1", "Enter")
    try session.waitFor("Confirm Your In-App Purchase")
    try session.send("Enter")
    try session.waitFor("Ask Permission")
    try session.send("Enter")
    try session.waitFor("deferred")
    try session.send("2")
    try session.waitFor("deferred")
    try session.send("a")
    try session.waitFor("purchased")
    try session.send("f")
    try session.waitFor("yes")
    try session.send("1", "r")
    try session.waitFor("restored")
    try assertQuitsCleanly(session)
    let ledger = try session.ledger()
    XCTAssertEqual(purchased(ledger, product: "com.jake.sample.ExInAppPurchase.shopping").count, 1)
    XCTAssertEqual(ledger.filter { $0["state"] as? String == "restored" }.count, 1)
  }

  func testResizeToTinyAndBack() throws {
    let session = try TmuxSession()
    try session.launch()
    try session.waitFor("[ Restore Purchases ]")
    try session.resize(width: 30, height: 8)
    try session.waitFor("too small")
    try session.resize(width: 100, height: 30)
    try session.waitFor("[ Restore Purchases ]")
    try assertQuitsCleanly(session)
  }

  func testNoTerminalSaysSoAndPointsToRun() throws {
    let process = Process()
    process.executableURL = TmuxSession.binary
    process.arguments = ["--data-dir", FileManager.default.temporaryDirectory.appendingPathComponent("sf-notty-\(getpid())").path]
    let errors = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 69)
    XCTAssertTrue(message.contains("storefront run"), message)
  }

  func testTerminationSignalsRestoreTheTerminal() throws {
    for (signal, code) in [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)] {
      let session = try TmuxSession()
      try session.launch("--account sig")
      try session.waitFor("[ Restore Purchases ]")
      let pid = try XCTUnwrap(session.storefrontPID())
      kill(pid, signal)
      try session.waitFor("EXIT=\(code)")
      try session.waitFor("MODES")
      XCTAssertTrue(try session.screen().contains("icanon echo"), "signal \(signal): terminal not restored")
    }
  }

  func testKilledMidSheetTheUnfinishedPurchaseComesBack() throws {
    let session = try TmuxSession()
    try session.launch("--account crash")
    try session.waitFor("crash")
    try session.send("Down", "Enter")
    try session.waitFor("Do you want to buy one 100 Coins")
    let pid = try XCTUnwrap(session.storefrontPID())
    kill(pid, SIGKILL)
    try session.waitFor("EXIT=137")
    try session.send("reset", "Enter")
    XCTAssertEqual(try session.ledger().first?["state"] as? String, "purchasing")
    try session.launch("--account crash")
    try session.waitFor("Do you want to buy one 100 Coins")  // the sheet returns at launch
    try session.send("Enter")
    try session.waitFor("bought ×1")
    try assertQuitsCleanly(session)
    let ledger = try session.ledger()
    XCTAssertEqual(ledger.count, 1)
    XCTAssertEqual(ledger.first?["state"] as? String, "purchased")
  }
}

final class StorefrontMouseTests: XCTestCase {
  /// An X10 mouse report (what tmux forwards when the app turned mouse reporting on): press, release.
  private func click(_ session: TmuxSession, column: Int, row: Int) throws {
    let x = String(format: "%02x", 32 + column + 1)
    let y = String(format: "%02x", 32 + row + 1)
    try session.tmux(["send-keys", "-t", "e2e", "-H", "1b", "5b", "4d", "20", x, y, "1b", "5b", "4d", "23", x, y])
  }

  func testClickingABuyButtonOpensThePurchaseSheetForThatRow() throws {
    let session = try TmuxSession()
    try session.launch("--account clicker")
    try session.waitFor("[ Restore Purchases ]")
    let lines = try session.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let row = try XCTUnwrap(lines.firstIndex { $0.contains("500 Coins") && $0.contains("[ Buy ]") })
    let column = try XCTUnwrap(lines[row].range(of: "[ Buy ]")).lowerBound
    try click(session, column: lines[row].distance(from: lines[row].startIndex, to: column) + 2, row: row)
    try session.waitFor("Do you want to buy one 500 Coins")
    try session.send("Escape")
    try session.waitUntil("the sheet closes", timeout: 10) { !(try session.screen().contains("Do you want to buy")) }
    try session.send("q")
    try session.waitFor("EXIT=0")
  }
}
