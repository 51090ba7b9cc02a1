import Foundation
import XCTest

/// Reading the Store pane's rows off the screen, and the ledger they must agree with.
extension TmuxSession {
  /// The Store pane's row of the product shown as `name`: the line that starts with the name and
  /// carries a `[ Buy ]` button (a sheet's line naming the product starts with its frame).
  func storeRow(_ name: String) throws -> String? {
    try screen().split(separator: "\n").map(String.init).first { $0.hasPrefix(name + " ") && $0.contains("[ Buy ]") }
  }

  /// The status column of `name`'s row: what stands between the price and `[ Buy ]` ("" for none).
  func storeStatus(_ name: String) throws -> String? {
    guard let row = try storeRow(name), let buy = row.range(of: "[ Buy ]", options: .backwards),
      let dollar = row[..<buy.lowerBound].lastIndex(of: "$")
    else { return nil }
    let afterPrice = row[dollar..<buy.lowerBound].drop { $0 != " " }
    return afterPrice.trimmingCharacters(in: .whitespaces)
  }

  /// The status of every Store row, by product name.
  func storeStatuses(_ names: [String]) throws -> [String: String] {
    var statuses: [String: String] = [:]
    for name in names { statuses[name] = try storeStatus(name) ?? "<no row>" }
    return statuses
  }

  /// Shows the Store pane and waits until `name`'s status satisfies `condition`; returns it.
  @discardableResult
  func waitForStatus(
    _ name: String, _ what: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
    _ condition: @escaping (String) -> Bool
  ) throws -> String {
    try send("1")
    var seen = ""
    try waitUntil("\(name)'s row to show \(what)", timeout: timeout, file: file, line: line) {
      seen = try self.storeStatus(name) ?? ""
      return condition(seen)
    }
    return seen
  }

  /// Shows the Store pane and waits until `name`'s status is exactly `status`.
  func waitForStatus(_ name: String, is status: String, file: StaticString = #filePath, line: UInt = #line) throws {
    try waitForStatus(name, "'\(status)'", file: file, line: line) { $0 == status }
  }

  /// The header's clock to the minute (`Clock 2026-12-02 05:02`).
  func headerClock() throws -> String? {
    try screen().split(separator: "\n").first { $0.hasPrefix(" Clock ") }.map { String($0.dropFirst().prefix(22)) }
  }

  /// Buys the Store row at `row` (catalog order) through the purchase sheet.
  func buy(row: Int, file: StaticString = #filePath, line: UInt = #line) throws {
    try send("1", "Home")
    for _ in 0..<row { try send("Down") }
    try send("Enter")
    try waitFor("[Environment: Sandbox]", file: file, line: line)
    try send("y")
  }

  /// Sets the Settings row at `index` (Account is 0) whose label is `label` to `value` by toggling it.
  func set(_ label: String, row index: Int, to value: String, file: StaticString = #filePath, line: UInt = #line) throws {
    try send("3", "Home")
    for _ in 0..<index { try send("Down") }
    try send("Enter")
    try waitUntil("Settings: \(label) \(value)", timeout: 10, file: file, line: line) {
      try self.screen().split(separator: "\n").contains {
        $0.hasPrefix(" \(label) ") && $0.split(separator: " ").last.map(String.init) == value
      }
    }
  }

  /// Presses `key` on the newest transaction of the Transactions pane.
  func onNewestTransaction(_ key: String) throws {
    try send("2", "End", key)
  }

  /// Runs `scenario` with `storefront run` on this data directory (another process), which must succeed.
  @discardableResult
  func runScenario(_ scenario: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let script = FileManager.default.temporaryDirectory.appendingPathComponent("sf-e2e-\(UUID().uuidString).scenario")
    try Data(scenario.utf8).write(to: script)
    defer { try? FileManager.default.removeItem(at: script) }
    let result = try storefront(["run", script.path])
    XCTAssertEqual(result.status, 0, "storefront run failed:\n\(scenario)\n\(result.output)", file: file, line: line)
    return result.output
  }

  /// The ledger's transactions of `product` for `account`, oldest purchase first.
  func ledger(_ product: String, account: String) throws -> [[String: Any]] {
    try ledger().filter { $0["productId"] as? String == product && $0["account"] as? String == account }.sorted {
      ($0["purchaseDate"] as? String ?? "", $0["transactionId"] as? String ?? "")
        < ($1["purchaseDate"] as? String ?? "", $1["transactionId"] as? String ?? "")
    }
  }

  /// The expiry of `product`'s current period in the ledger (its newest purchased transaction with an
  /// expiry), as the TUI shows a date: `2026-12-09 05:45` (UTC, minutes).
  func currentExpiry(_ product: String, account: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let periods = try ledger(product, account: account).filter { $0["state"] as? String == "purchased" }
    let expires = try XCTUnwrap(periods.last?["expiresDate"] as? String, "no period of \(product) in the ledger", file: file, line: line)
    return Self.shortDate(expires)
  }

  /// `2026-12-09T05:45:02Z` (the ledger listing's seconds, truncated as the TUI truncates) as the TUI shows it.
  static func shortDate(_ iso: String) -> String {
    String(iso.prefix(16)).replacingOccurrences(of: "T", with: " ")
  }
}
