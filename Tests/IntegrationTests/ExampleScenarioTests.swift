import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Every checked-in example runs through the real binary on a fresh data directory (issue 3: the
/// examples run in CI) and its `--json` output has the fields Docs/Scenarios.md documents (issue 6).
final class ExampleScenarioTests: XCTestCase {
  static let states: Set<String> = ["purchasing", "purchased", "failed", "restored", "deferred"]

  func testEveryExampleScenarioPassesWithWellFormedJSONEvents() throws {
    let examples = try ExampleScenarios.all()
    XCTAssertGreaterThanOrEqual(examples.count, 8, "expected the examples 01…08 in \(ExampleScenarios.directory.path)")
    for example in examples {
      let name = example.lastPathComponent
      let directory = try TemporaryDirectory(self)
      let result = try StorefrontBinary.run(["run", example.path, "--json", "--data-dir", directory.path("data")] + ExampleScenarios.options(for: example), in: directory)
      XCTAssertEqual(result.status, 0, result.summary)
      XCTAssertEqual(result.stderr, "", "\(name) wrote to stderr")
      let events = EventLine.parse(result.stdout, source: name)
      XCTAssertFalse(events.isEmpty, "\(name) printed no events")
      XCTAssertTrue(events.contains(where: \.isTransaction), "\(name) printed no transaction event")
      for event in events { checkFields(of: event, in: name) }
    }
  }

  func testExamplesProduceTheCallbacksTheyDescribe() throws {
    // Per example, (event, state or nil, error name or nil) that must appear.
    let expected: [String: [(String, String?, String?)]] = [
      "01": [("productsResponse", nil, nil), ("sheetPresented", nil, nil), ("transactionUpdated", "purchased", nil), ("transactionRemoved", "purchased", nil), ("error", nil, nil)],
      "02": [("transactionUpdated", "failed", "paymentCancelled"), ("transactionRemoved", "failed", "paymentCancelled")],
      "03": [("restoreFinished", nil, nil), ("transactionUpdated", "restored", nil), ("restoreFailed", nil, "cloudServiceNetworkConnectionFailed")],
      // B12: a declined Ask to Buy is an askToBuyAnswered event for the tester, no callback for the app.
      "04": [("transactionUpdated", "deferred", nil), ("askToBuyAnswered", nil, nil), ("transactionUpdated", "failed", "unknown"), ("transactionUpdated", "purchased", nil)],
      "05": [("transactionUpdated", "purchased", nil), ("transactionRemoved", "purchased", nil)],
      "06": [("transactionUpdated", "failed", "paymentNotAllowed"), ("transactionUpdated", "failed", "unknownServerError"), ("productsRequestFailed", nil, "unknown")],
      "07": [("subscriptionStatusChanged", nil, nil), ("transactionRevoked", "purchased", nil)],
      "08": [("transactionRevoked", "purchased", nil), ("shouldAddStorePayment", nil, nil), ("subscriptionStatusChanged", nil, nil)],
      // B10, B55, B27.
      "09": [("refundRequest", nil, nil), ("transactionRevoked", "purchased", nil), ("shouldAddStorePayment", nil, nil), ("appCrashed", nil, nil)],
      // §43: the monthly plan's sheet and its twelve payments.
      "11": [("sheetPresented", nil, nil), ("transactionUpdated", "purchased", nil), ("subscriptionStatusChanged", nil, nil)],
      // B87–B89: codes redeemed as one-time offers; a code used twice, past its limit or expiry is refused.
      "12": [("transactionUpdated", "purchased", nil), ("error", nil, "offerCodeAlreadyRedeemed"), ("error", nil, "offerCodeLimitReached"), ("error", nil, "offerCodeExpired"), ("error", nil, "offerCodeRedeemedByCustomer")],
      // B83–B85: no realtime URL, so the plain cancel sheet; cancelling anyway turns auto-renew off.
      "13": [("retentionSheet", nil, nil), ("subscriptionStatusChanged", nil, nil)],
    ]
    for (prefix, wanted) in expected.sorted(by: { $0.key < $1.key }) {
      let example = try ExampleScenarios.named(prefix)
      let directory = try TemporaryDirectory(self)
      let result = try StorefrontBinary.run(["run", example.path, "--json", "--data-dir", directory.path("data")] + ExampleScenarios.options(for: example), in: directory)
      XCTAssertEqual(result.status, 0, result.summary)
      let events = EventLine.parse(result.stdout, source: example.lastPathComponent)
      for (name, state, error) in wanted {
        let found = events.contains { event in
          event.event == name && (state == nil || event.state == state)
            && (error == nil || event.errorName == error || (event.object["error"] as? String) == error)
        }
        XCTAssertTrue(found, "\(example.lastPathComponent): no \(name) \(state ?? "") \(error ?? "") event in:\n\(events.map { "\($0.event ?? "?") \($0.state ?? "")" }.joined(separator: "\n"))")
      }
    }
  }

  func testRestoreCountsAndEventOrderOfTheRestoreExample() throws {
    let example = try ExampleScenarios.named("03")
    let directory = try TemporaryDirectory(self)
    let result = try StorefrontBinary.run(["run", example.path, "--json", "--data-dir", directory.path("data")] + ExampleScenarios.options(for: example), in: directory)
    XCTAssertEqual(result.status, 0, result.summary)
    let events = EventLine.parse(result.stdout, source: "03")
    let counts = events.filter { $0.event == "restoreFinished" }.compactMap { $0.object["restoredCount"] as? Int }
    XCTAssertEqual(counts, [0, 1])
    // StoreKit order: the restored transaction is delivered before the restore finishes.
    let restored = try XCTUnwrap(events.firstIndex { $0.state == "restored" })
    let lastFinished = try XCTUnwrap(events.lastIndex { $0.event == "restoreFinished" })
    XCTAssertLessThan(restored, lastFinished)
    XCTAssertEqual(events.last?.event, "restoreFailed")
  }

  func testEveryExampleAlsoRunsWithReadableOutput() throws {
    for example in try ExampleScenarios.all() {
      let directory = try TemporaryDirectory(self)
      let result = try StorefrontBinary.run(["run", example.path, "--data-dir", directory.path("data")] + ExampleScenarios.options(for: example), in: directory)
      XCTAssertEqual(result.status, 0, result.summary)
      XCTAssertFalse(result.lines.isEmpty)
      for line in result.lines {
        XCTAssertTrue(line.range(of: #"^\[\d{4}-"#, options: .regularExpression) != nil && !line.hasPrefix("{"), "\(example.lastPathComponent): unexpected line \(line.prefix(120))")
      }
      XCTAssertTrue(result.lines.contains { $0.contains("updatedTransactions: ") }, example.lastPathComponent)
    }
  }

  private func checkFields(of event: EventLine, in name: String, file: StaticString = #filePath, line: UInt = #line) {
    let place = "\(name) output line \(event.number) (\(event.text.prefix(160)))"
    guard let kind = event.event, !kind.isEmpty else {
      return XCTFail("\(place): no event field", file: file, line: line)
    }
    if let time = event.object["time"] as? String {
      XCTAssertNotNil(ISO8601DateFormatter().date(from: time), "\(place): time '\(time)' is not ISO 8601", file: file, line: line)
    } else {
      XCTFail("\(place): no time", file: file, line: line)
    }
    guard event.isTransaction else { return }
    // B3: the ids and date are StoreKit's only once purchased or restored; `queueId` is always there.
    let defined = event.state == "purchased" || event.state == "restored"
    for key in ["queueId", "transactionId", "originalTransactionId"] {
      let value = event.object[key] as? String
      if key == "queueId" || defined {
        XCTAssertTrue(value.map { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ?? false, "\(place): \(key) is not a numeric string", file: file, line: line)
      } else {
        XCTAssertNil(value, "\(place): \(key) on a \(event.state ?? "") transaction", file: file, line: line)
      }
    }
    XCTAssertFalse((event.productID ?? "").isEmpty, "\(place): no productId", file: file, line: line)
    XCTAssertTrue(event.state.map(Self.states.contains) ?? false, "\(place): state '\(event.state ?? "nil")'", file: file, line: line)
    XCTAssertGreaterThanOrEqual(event.object["quantity"] as? Int ?? 0, 1, "\(place): quantity", file: file, line: line)
    if event.state == "failed" {
      let error = event.object["error"] as? [String: Any]
      XCTAssertNotNil(error?["code"] as? Int, "\(place): a failed transaction needs error.code", file: file, line: line)
      XCTAssertFalse((error?["name"] as? String ?? "").isEmpty, "\(place): a failed transaction needs error.name", file: file, line: line)
    } else {
      XCTAssertNil(event.object["error"], "\(place): error on a \(event.state ?? "") transaction", file: file, line: line)
    }
    if event.state == "purchased" || event.state == "restored" {
      let jws = event.object["signedTransaction"] as? String ?? ""
      let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
      XCTAssertEqual(parts.count, 3, "\(place): signedTransaction is not a compact JWS", file: file, line: line)
      if parts.count == 3, let payload = EventLine.jsonSegment(parts[1]) {
        // A re-downloaded non-consumable carries the existing transaction's JWS (B23).
        XCTAssertTrue(
          [event.transactionID, event.object["originalTransactionId"] as? String].contains(payload["transactionId"] as? String),
          "\(place): JWS transactionId", file: file, line: line)
        XCTAssertEqual(payload["productId"] as? String, event.productID, "\(place): JWS productId", file: file, line: line)
      } else {
        XCTFail("\(place): the JWS payload is not base64url JSON", file: file, line: line)
      }
    } else {
      XCTAssertNil(event.object["signedTransaction"], "\(place): signedTransaction on a \(event.state ?? "") transaction", file: file, line: line)
    }
  }
}
