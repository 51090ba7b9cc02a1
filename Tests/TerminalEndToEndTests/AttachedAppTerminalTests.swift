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
      Self.updates(result.output),
      ["updated \(Self.coins) purchasing", "updated \(Self.coins) purchased"])
    try session.waitForStatus("100 Coins", is: "bought ×1")
    // The program's finishTransaction reached the ledger.
    let stored = try session.ledger().filter { $0["productId"] as? String == Self.coins }
    XCTAssertEqual(stored.count, 1)
    XCTAssertEqual(stored.first?["finished"] as? Bool, true, "\(stored)")
    XCTAssertEqual(stored.first?["account"] as? String, "mina")
    // The Log pane shows the program's callbacks as it heard them, marked with its bundle id.
    try session.resize(width: 240, height: 40)
    try session.send("4")
    try session.waitUntil("the app's purchased callback in the Log pane", timeout: 10) {
      try session.screen().split(separator: "\n").contains { $0.contains("[storekit-attached-app]") && $0.contains("\(Self.coins) purchased") }
    }
    let log = try session.screen()
    XCTAssertTrue(
      log.split(separator: "\n").contains { $0.contains("[storekit-attached-app]") && $0.contains("\(Self.coins) purchasing") }, log)
  }

  /// The sheet states what the app's engine quoted: a subscription with a free trial reads as the
  /// trial and its terms, not as the regular price (issue 35).
  func testAnAttachedAppsFreeTrialSheetStatesTheTrial() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("Restore Purchases")
    let app = try startApp(session, product: "com.jake.sample.ExInAppPurchase.premium.monthly")
    try session.waitFor("For storekit-attached-app")
    let screen = try session.screen()
    XCTAssertTrue(screen.contains("Start your free trial of"), screen)
    XCTAssertFalse(screen.contains("buy one"), screen)
    try session.send("Enter")
    let result = try finish(app)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
  }

  func testEscapeInTheTUIGivesTheAppPaymentCancelled() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("Restore Purchases")
    let app = try startApp(session)
    try session.waitFor("For storekit-attached-app")
    try session.send("Escape")
    let result = try finish(app)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(
      Self.updates(result.output),
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

  /// SIGKILL of the storefront while the app waits: nothing is answered for the app, and the next
  /// storefront on the data directory shows the same sheet, where Enter completes the purchase once.
  func testAKilledStorefrontsSheetIsShownByTheNextStorefront() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("Restore Purchases")
    let app = try startApp(session)
    try session.waitFor("For storekit-attached-app")
    let storefront = try XCTUnwrap(try session.storefrontPID())
    kill(storefront, SIGKILL)
    try session.waitFor("EXIT=137")
    XCTAssertTrue(app.process.isRunning, "the app still waits for an answer")
    let waiting = try session.ledger().filter { $0["productId"] as? String == Self.coins }
    XCTAssertEqual(waiting.map { $0["state"] as? String }, ["purchasing"])
    try session.launch()
    try session.waitFor("For storekit-attached-app")
    try session.send("Enter")
    let result = try finish(app)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(
      Self.updates(result.output),
      ["updated \(Self.coins) purchasing", "updated \(Self.coins) purchased"])
    let stored = try session.ledger().filter { $0["productId"] as? String == Self.coins }
    XCTAssertEqual(stored.map { $0["state"] as? String }, ["purchased"], "one purchase, charged once")
  }

  /// A signed-out device: the app's purchase asks the storefront to sign in ("For <app>"), the
  /// storefront signs the device in, and the purchase sheet follows; the app buys as that account.
  func testASignedOutStorefrontSignsInForTheApp() throws {
    let session = try TmuxSession()
    try session.launch()
    try session.waitFor("Not signed in")
    let app = try startApp(session)
    try session.waitFor("Sign in with your sandbox Apple Account to buy.")
    XCTAssertTrue(try session.screen().contains("For storekit-attached-app"))
    try session.type("mina")
    try session.send("Enter")
    try session.send("Enter")
    try session.waitFor("Do you want to buy one 100 Coins for $0.99?")
    XCTAssertTrue(try session.screen().contains("For storekit-attached-app"))
    try session.send("Enter")
    let result = try finish(app)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(Self.updates(result.output), ["updated \(Self.coins) purchasing", "updated \(Self.coins) purchased"])
    let stored = try session.ledger().filter { $0["productId"] as? String == Self.coins }
    XCTAssertEqual(stored.first?["account"] as? String, "mina", "\(stored)")
    // The storefront is signed in as the account it signed in for the app.
    try session.waitFor(" mina ")
  }

  /// The storefront's Settings pane is the device's: Ask to Buy turned on there defers the attached
  /// app's purchase after its sheet, as on a device; approved in the storefront's Transactions pane,
  /// the app hears it purchased without doing anything.
  func testTheAppFollowsTheStorefrontsSandboxSettings() throws {
    let session = try TmuxSession()
    try session.launch("--account mina")
    try session.waitFor("Restore Purchases")
    try session.send("3")
    try session.send("Down")
    try session.send("Down")
    try session.send("Enter")
    try session.waitUntil("Ask to Buy is on", timeout: 10) {
      try session.screen().split(separator: "\n").contains { $0.contains("Ask to Buy") && $0.contains("on") && !$0.contains("off") }
    }
    let app = try startApp(session)
    try session.waitFor("For storekit-attached-app")
    try session.send("Enter")
    // As for the simulated app: the Ask Permission sheet, and no word of completing the purchase.
    try session.waitFor("Ask Permission")
    XCTAssertTrue(try session.screen().contains("it gets deferred until a parent approves"))
    try session.send("Escape")
    try session.waitUntil("the app's purchase is deferred", timeout: 10) {
      try session.ledger().contains { $0["productId"] as? String == Self.coins && $0["state"] as? String == "deferred" }
    }
    // The parent approves in the storefront: the app, which is only waiting, hears it is purchased.
    try session.send("2")
    try session.waitFor("deferred")
    try session.send("a")
    let result = try finish(app)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(
      Self.updates(result.output), ["updated \(Self.coins) purchasing", "updated \(Self.coins) deferred", "updated \(Self.coins) purchased"])
  }

  /// Bad input, each a clear message and nothing written: a data directory a newer schema wrote, a
  /// second process with the same bundle id, products the storefront's catalog does not sell.
  func testBadAttachmentsAreRefusedWithAMessage() throws {
    let session = try TmuxSession()
    // Another app of the same bundle id waits at its sheet (no storefront yet).
    let first = try startApp(session, environment: ["STOREFRONT_BUNDLE_ID": "com.example.twice", "STOREKIT_CONFIGURATION": Self.catalogPath])
    try waitUntilLedger(session, "the first app's purchase is waiting") { $0.contains { $0["state"] as? String == "purchasing" } }
    let second = try finish(try startApp(
      session, environment: ["STOREFRONT_BUNDLE_ID": "com.example.twice", "STOREKIT_CONFIGURATION": Self.catalogPath, "STOREFRONT_DIALOGS": "off"]))
    XCTAssertEqual(second.status, 1)
    XCTAssertEqual(second.output, "products failed 0\n", "the products request fails, as without a store")
    XCTAssertTrue(second.errors.contains("another process (pid \(first.process.processIdentifier) on "), second.errors)
    XCTAssertTrue(second.errors.contains("as com.example.twice; an app runs once on a device"), second.errors)
    XCTAssertEqual(try session.ledger().count, 1, "the second process wrote nothing")
    first.process.terminate()
    _ = try finish(first)

    // A storefront on its built-in catalog, an app asking for a product it does not sell.
    try session.launch()
    try session.waitFor("Restore Purchases")
    // The stopped app's purchase is in its queue, not the storefront's simulated app's: the
    // Transactions pane says whose it is, and f leaves it to that app.
    try session.send("2")
    try session.waitFor("purchasing · com.example.twice's")
    XCTAssertFalse(try session.screen().contains("1 unfinished"), "not in the simulated app's queue")
    try session.send("f")
    try session.waitFor("is in com.example.twice's queue: that app finishes it")
    try session.send("1")
    let unsold = try finish(try startApp(session, product: "com.example.other.catalog.gems"))
    XCTAssertEqual(unsold.output, "products  invalid com.example.other.catalog.gems\n", "as the App Store: an invalid identifier")
    XCTAssertTrue(unsold.errors.contains("com.example.other.catalog.gems is not in the store's catalog (the storefront on \(session.dataDirectory.path) sells its built-in catalog)"), unsold.errors)
    try session.send("q")
    try session.waitFor("EXIT=0")

    // A ledger of a newer schema: refused and left as it was.
    let ledger = session.dataDirectory.appendingPathComponent("ledger.sqlite")
    try sqlite(ledger, "PRAGMA user_version = 99; PRAGMA wal_checkpoint(TRUNCATE);")
    let bytes = try Data(contentsOf: ledger)
    let newer = try finish(try startApp(session, environment: ["STOREKIT_CONFIGURATION": Self.catalogPath]))
    XCTAssertEqual(newer.output, "products failed 0\n")
    XCTAssertTrue(newer.errors.contains("has schema version 99, written by a newer storefront than this app's StoreKit library"), newer.errors)
    XCTAssertTrue(newer.errors.contains("swift package update"), newer.errors)
    XCTAssertEqual(try Data(contentsOf: ledger), bytes, "the ledger is untouched")
  }

  /// The program's `updated` lines without their transaction ids.
  /// The App Store's offer-code sheet of an attached app (`presentCodeRedemptionSheet()`) comes up
  /// in the TUI; the code typed there is redeemed by the app's own engine, and its purchase reaches
  /// the app's observer after the TUI's purchase sheet.
  func testTheAttachedAppsOfferCodeSheetIsAnsweredInTheTUI() throws {
    let session = try TmuxSession()
    // The built-in catalog, with an offer code on the monthly subscription.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var catalog = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("Catalog/Default.storekit"))) as? [String: Any])
    var groups = try XCTUnwrap(catalog["subscriptionGroups"] as? [[String: Any]])
    var subscriptions = try XCTUnwrap(groups.first?["subscriptions"] as? [[String: Any]])
    subscriptions[0]["codeOffers"] = [[
      "internalID": "SPRING2026", "referenceName": "Spring", "paymentMode": "free", "subscriptionPeriod": "P1M",
      "numberOfPeriods": 1, "displayPrice": "0", "eligibility": ["new"], "isStackable": false,
    ]]
    groups[0]["subscriptions"] = subscriptions
    catalog["subscriptionGroups"] = groups
    let file = session.dataDirectory.deletingLastPathComponent().appendingPathComponent("codes.storekit")
    try JSONSerialization.data(withJSONObject: catalog, options: [.prettyPrinted]).write(to: file)
    let product = try XCTUnwrap(subscriptions[0]["productID"] as? String)

    try session.launch("--account mina --catalog \(file.path)")
    try session.waitFor("Restore Purchases")
    let app = try startApp(session, product: "--redeem-code")
    try session.waitFor("offer code of storekit-attached-app")
    XCTAssertTrue(try session.screen().contains("Redeem Code"))
    try session.type("spring2026")
    try session.send("Enter")
    try session.waitFor("For storekit-attached-app")
    try session.send("Enter")
    let result = try finish(app)
    XCTAssertEqual(result.status, 0, result.output + result.errors)
    XCTAssertEqual(Self.updates(result.output), ["updated \(product) purchasing", "updated \(product) purchased"])
    let stored = try session.ledger().filter { $0["productId"] as? String == product }
    XCTAssertEqual(stored.count, 1, "\(stored)")
    XCTAssertEqual(stored.first?["price"] as? String, "0", "the code's free month, not the list price")
  }

  static func updates(_ output: String) -> [String] {
    output.split(separator: "\n").filter { $0.hasPrefix("updated") }.map { $0.split(separator: " ").dropLast().joined(separator: " ") }
  }

  static var catalogPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Catalog/Default.storekit").path
  }

  private func waitUntilLedger(_ session: TmuxSession, _ what: String, _ condition: ([[String: Any]]) -> Bool) throws {
    try session.waitUntil(what, timeout: 10) { condition((try? session.ledger()) ?? []) }
  }

  @discardableResult
  private func sqlite(_ file: URL, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [file.path, sql]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "sqlite3 \(sql)")
    return String(decoding: data, as: UTF8.self)
  }
}
