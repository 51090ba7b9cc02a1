import Foundation
import XCTest

/// The storefront TUI as the device's App Store for a separately built program that uses only
/// Apple's StoreKit API (`storekit-attached-app`, issue 25): the program's purchase sheet appears in
/// the TUI naming the program, and the key pressed there answers the program's observer.
final class AttachedAppTerminalTests: XCTestCase {
  static let coins = "com.jake.sample.ExInAppPurchase.coins100"

  /// The fixture program, built next to the `storefront` binary.
  static var appBinary: URL { TmuxSession.binary.deletingLastPathComponent().appendingPathComponent("storekit-attached-app") }

  /// Starts the program on the session's data directory; its standard output and error are collected.
  private func startApp(
    _ session: TmuxSession, product: String = coins, environment extra: [String: String] = [:]
  ) throws -> (process: Process, output: Pipe, errors: Pipe) {
    let process = Process()
    process.executableURL = Self.appBinary
    process.arguments = [product]
    var environment = ProcessInfo.processInfo.environment
    environment["STOREFRONT_DATA_DIR"] = session.dataDirectory.path
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return (process, output, errors)
  }

  /// Waits (bounded) for the program to exit; returns its output.
  private func finish(_ app: (process: Process, output: Pipe, errors: Pipe), within seconds: TimeInterval = 20) throws -> (status: Int32, output: String, errors: String) {
    let done = DispatchSemaphore(value: 0)
    app.process.terminationHandler = { _ in done.signal() }
    if app.process.isRunning, done.wait(timeout: .now() + seconds) == .timedOut {
      app.process.terminate()
      XCTFail("the attached app did not end within \(seconds) s")
    }
    app.process.waitUntilExit()
    let output = String(decoding: app.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errors = String(decoding: app.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (app.process.terminationStatus, output, errors)
  }

  func testEnterInTheTUIConfirmsTheAttachedAppsPurchase() throws {
    let session = try TmuxSession()
    // The device's account: the app buys as whoever the storefront is signed in as.
    try session.launch("--account mina")
    try session.waitFor("Restore Purchases")
    let app = try startApp(session)
    try session.waitFor("For storekit-attached-app")
    XCTAssertTrue(try session.screen().contains("Do you want to buy one 100 Coins for $0.99?"))
    // The header names the attached app by its bundle id (the executable's name) and pid.
    try session.waitFor("App: storekit-attached-app (pid \(app.process.processIdentifier), since ")
    try session.send("Enter")
    let result = try finish(app)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(
      result.output.split(separator: "\n").filter { $0.hasPrefix("updated") },
      ["updated \(Self.coins) purchasing", "updated \(Self.coins) purchased"])
    try session.waitForStatus("100 Coins", is: "bought ×1")
    // The program's finishTransaction reached the ledger.
    let stored = try session.ledger().filter { $0["productId"] as? String == Self.coins }
    XCTAssertEqual(stored.count, 1)
    XCTAssertEqual(stored.first?["finished"] as? Bool, true, "\(stored)")
    XCTAssertEqual(stored.first?["account"] as? String, "mina")
  }

  func testEscapeInTheTUIGivesTheAppPaymentCancelled() throws {
    let session = try TmuxSession()
    try session.launch()
    try session.waitFor("Restore Purchases")
    let app = try startApp(session)
    try session.waitFor("For storekit-attached-app")
    try session.send("Escape")
    let result = try finish(app)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(
      result.output.split(separator: "\n").filter { $0.hasPrefix("updated") },
      ["updated \(Self.coins) purchasing", "updated \(Self.coins) failed 2"], "SKError.paymentCancelled is 2")
  }

  /// With no storefront on the data directory the app says so once and, after the bounded wait,
  /// the payment fails as a cancelled one; with dialogs off it confirms by itself.
  func testWithoutAStorefrontTheAppWaitsBoundedOrAnswersItself() throws {
    let session = try TmuxSession()
    // No storefront names a catalog: the app brings its own.
    let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Catalog/Default.storekit").path
    let waiting = try finish(try startApp(
      session, environment: ["STOREFRONT_SHEET_TIMEOUT": "1", "STOREKIT_CONFIGURATION": catalog]))
    XCTAssertTrue(waiting.errors.contains("waits for a storefront on \(session.dataDirectory.path)"), waiting.errors)
    XCTAssertTrue(waiting.errors.contains("storefront --data-dir \(session.dataDirectory.path)"), waiting.errors)
    XCTAssertTrue(waiting.output.contains("updated \(Self.coins) failed 2"), waiting.output)
    let itself = try finish(try startApp(session, environment: ["STOREFRONT_DIALOGS": "off", "STOREKIT_CONFIGURATION": catalog]))
    XCTAssertTrue(itself.output.contains("updated \(Self.coins) purchased"), itself.output + itself.errors)
    XCTAssertEqual(itself.errors, "")
  }

  /// SIGKILL of the app while its sheet is up: the TUI withdraws the sheet, nothing is charged, and
  /// the purchase is the app's again at its next launch (not the storefront's), where Enter completes it.
  func testAKilledAppsPurchaseWaitsForItsNextLaunch() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("Restore Purchases")
    let first = try startApp(session)
    try session.waitFor("For storekit-attached-app")
    kill(first.process.processIdentifier, SIGKILL)
    first.process.waitUntilExit()
    try session.waitUntil("the sheet is withdrawn", timeout: 10) { !(try session.screen().contains("For storekit-attached-app")) }
    let left = try session.ledger().filter { $0["productId"] as? String == Self.coins }
    XCTAssertEqual(left.map { $0["state"] as? String }, ["purchasing"], "nothing charged, nothing lost")
    // The next launch of the same app takes its purchase back and asks again.
    let second = try startApp(session)
    try session.waitFor("For storekit-attached-app")
    try session.send("Enter")
    let result = try finish(second)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertTrue(result.output.contains("updated \(Self.coins) purchased"), result.output)
    let stored = try session.ledger().filter { $0["productId"] as? String == Self.coins && $0["state"] as? String == "purchased" }
    XCTAssertGreaterThanOrEqual(stored.count, 1, "no purchased 100 Coins in the ledger")
  }
}
