import Foundation
import StoreEngine
import XCTest

/// The Catalog pane (issue 26), in a real terminal: a catalog made by `catalog new` is filled in
/// the pane (a consumable, a non-consumable, a group of two auto-renewable subscriptions with a
/// free trial, two locales), bought from in the Store pane without a restart, and accepted by
/// `catalog check`; an edit by another process is noticed, refused over, and reloaded.
final class CatalogEditorTerminalTests: XCTestCase {
  private func newCatalog(_ session: TmuxSession) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sf-catalog-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("Store.storekit").path
    let made = try session.storefront(["catalog", "new", path])
    XCTAssertEqual(made.status, 0, made.output)
    return path
  }

  /// Fills the Add a Product form: `type` is how many → from consumable; then the fields in order.
  private func add(_ session: TmuxSession, typeSteps: Int, id: String, price: String, name: String, group: String? = nil, yearly: Bool = false, intro: String? = nil) throws {
    try session.send("a")
    try session.waitFor("Add a Product")
    for _ in 0..<typeSteps { try session.send("Right") }
    try session.send("Tab")
    try session.type(id)
    try session.send("Tab")
    try session.type(price)
    try session.send("Tab")
    try session.type(name)
    if typeSteps == 3 {
      try session.send("Tab", "Tab", "Tab")  // description, family shareable, group
      if let group { try session.type(group) }
      try session.send("Tab")
      if yearly { for _ in 0..<4 { try session.send("Right") } }  // P1M → P1Y
      try session.send("Tab")
      if let intro { try session.type(intro) }
    }
    try session.waitFor("OK: Enter saves to the file.")
    try session.send("Enter")
    try session.waitFor("Saved ")
    try session.waitUntil("the form closes", timeout: 10) { try !session.screen().contains("Add a Product") }
  }

  func testACatalogBuiltInThePaneIsSoldAtOnceAndPassesCatalogCheck() throws {
    let session = try TmuxSession(width: 130, height: 34)
    let path = try newCatalog(session)
    try session.launch("--catalog \(path) --account mina")
    try session.waitFor("Restore Purchases")
    try session.send("6")
    try session.waitFor("Products (0)")
    try add(session, typeSteps: 0, id: "com.example.coins", price: "0.99", name: "100 Coins")
    try add(session, typeSteps: 1, id: "com.example.unlock", price: "4.99", name: "Pro Unlock")
    try add(session, typeSteps: 3, id: "com.example.plus.monthly", price: "2.99", name: "Plus Monthly", group: "Plus", intro: "free:P1W")
    try add(session, typeSteps: 3, id: "com.example.plus.yearly", price: "19.99", name: "Plus Yearly", yearly: true, intro: "free:P1W")
    try session.waitFor("Group Plus (2)")
    let tree = try session.screen()
    XCTAssertTrue(tree.contains("Plus Yearly · level 2 · P1Y · intro free:P1W"), tree)

    // A second locale for the coins, in the edit form's Add locale field.
    try session.send("Home", "Down", "Down", "Enter")
    try session.waitFor("Edit com.example.coins")
    for _ in 0..<6 { try session.send("Tab") }
    try session.type("ko")
    try session.send("Tab")
    try session.type("동전 100")
    // A bad price is named as it is typed and never written.
    try session.send("BTab", "BTab", "BTab", "BTab", "BTab")
    try session.type("abc")
    try session.waitFor("price 'abc' is not a price")
    try session.send("BSpace", "BSpace", "BSpace")
    try session.type("1.29")
    try session.waitFor("OK: Enter saves to the file.")
    try session.send("Enter")
    try session.waitFor("100 Coins · en_US,ko")

    // The Store pane sells the saved catalog, without a restart.
    try session.send("1")
    try session.waitFor("Plus Yearly")
    let store = try session.screen()
    XCTAssertEqual(try session.storeRow("100 Coins")?.contains("$1.29"), true, store)
    try session.buy(row: 3)
    try session.waitUntil("Plus Yearly subscribed", timeout: 10) { try session.storeStatus("Plus Yearly")?.hasPrefix("renews ") == true }
    let bought = try session.ledger().filter { $0["productId"] as? String == "com.example.plus.yearly" }
    XCTAssertEqual(bought.count, 1, "\(bought)")

    let check = try session.storefront(["catalog", "check", path])
    XCTAssertEqual(check.status, 0, check.output)
    XCTAssertTrue(check.output.contains("4 products, 1 subscription group"), check.output)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    XCTAssertTrue(text.contains(#""displayName" : "동전 100""#), text)
    XCTAssertTrue(text.contains(#""displayPrice" : "1.29""#), text)
    XCTAssertTrue(FileManager.default.fileExists(atPath: CatalogFile.backupPath(of: path)))
    try session.send("q")
    try session.waitFor("EXIT=0")
  }

  func testAnEditByAnotherProcessIsNoticedRefusedOverAndReloaded() throws {
    let session = try TmuxSession(width: 130, height: 34)
    let path = try newCatalog(session)
    XCTAssertEqual(try session.storefront(["catalog", "add", path, "consumable", "com.example.coins", "price=0.99", "name=100 Coins"]).status, 0)
    try session.launch("--catalog \(path)")
    try session.waitFor("Restore Purchases")
    try session.send("6")
    try session.waitFor("com.example.coins")
    // Opened in the pane, then changed by another process before the pane saves.
    try session.send("Home", "Down", "Down", "Enter")
    try session.waitFor("Edit com.example.coins")
    try session.send("Tab", "Tab")
    try session.type("2.49")
    XCTAssertEqual(try session.storefront(["catalog", "set", path, "com.example.coins", "price=3.99"]).status, 0)
    let theirs = try Data(contentsOf: URL(fileURLWithPath: path))
    try session.send("Enter")
    try session.waitFor("changed on disk since it was opened")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), theirs, "the other process's edit is kept")
    try session.send("Escape")
    try session.waitFor("changed on disk — R reloads it")
    try session.send("a")
    try session.waitFor("press R to reload it before editing")
    try session.send("R")
    try session.waitFor("Reloaded ")
    try session.send("1")
    try session.waitUntil("the reloaded price in the Store pane", timeout: 10) { try session.storeRow("100 Coins")?.contains("$3.99") == true }

    // A file made read-only is not written, and the form says so.
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
    try session.send("6", "Home", "Down", "Down", "Enter")
    try session.waitFor("Edit com.example.coins")
    try session.send("Tab", "Tab")
    try session.type("5.49")
    try session.send("Enter")
    try session.waitFor("is read-only; nothing was written")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), theirs)
    try session.send("Escape", "q")
    try session.waitFor("EXIT=0")
  }
}
