import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// The `api-request` fuzz target's seeds and regressions, fed in-process to the same API over the
/// same ledger as `Fuzz/Targets/APIRequestFuzz.swift` (whose request decoding is repeated here, as the
/// target is built outside SwiftPM): each seed gets its expected answer, and nothing answers 5xx.
final class APIRequestSeedTests: XCTestCase {
  private static let fuzzRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz")

  private func api() throws -> AppStoreServerAPI {
    var environment = TestStore.environment
    environment.signer = UnsignedTestSigner(environment: "Sandbox")
    let store = try TestStore(environment: environment)
    try store.buy(FixtureCatalog.removeAds)
    for _ in 0..<3 { try store.queue.finish(try store.buy(FixtureCatalog.coins).id) }
    try store.buy(FixtureCatalog.monthly)
    try store.buy(FixtureCatalog.seasonPass)
    return AppStoreServerAPI(
      ledger: store.ledger, environment: .sandbox, bundleID: StoreEnvironment.defaultBundleID, now: { TestStore.start },
      sleep: { _ in })
  }

  /// `METHOD PATH[?QUERY]`, a newline, the body: as the fuzz target decodes its input.
  private func request(_ data: Data) -> APIRequest {
    let bytes = [UInt8](data)
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    let line = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.endIndex ? Data(bytes[(newline + 1)...]) : Data()
    let space = line.firstIndex(of: " ") ?? line.endIndex
    let target: Substring = space < line.endIndex ? line[line.index(after: space)...] : ""
    let question = target.firstIndex(of: "?") ?? target.endIndex
    let queryText: Substring = question < target.endIndex ? target[target.index(after: question)...] : ""
    let query = queryText.split(separator: "&").map { (pair: Substring) -> (name: String, value: String) in
      let equals = pair.firstIndex(of: "=") ?? pair.endIndex
      let name = String(pair[..<equals])
      let value = equals < pair.endIndex ? String(pair[pair.index(after: equals)...]) : ""
      return (name.removingPercentEncoding ?? name, value.removingPercentEncoding ?? value)
    }
    return APIRequest(method: String(line[..<space]), path: String(target[..<question]), query: query, body: body)
  }

  private func files(_ folder: String) -> [URL] {
    let directory = Self.fuzzRoot.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.sorted().map { directory.appendingPathComponent($0) }
  }

  func testEachSeedGetsItsAnswer() throws {
    // Status, then Apple's errorCode (nil: a page, an empty 202, or a plain-text 404/405).
    let expected: [String: (Int, Int?)] = [
      "transaction-info.txt": (200, nil), "transaction-letters.txt": (400, 4_000_006), "transaction-encoded.txt": (404, 4_040_010),
      "app-transaction.txt": (404, 4_040_019), "history-filters.txt": (200, nil), "history-dates.txt": (200, nil),
      "history-revision.txt": (200, nil), "history-revision-descending.txt": (200, nil), "history-v1-group.txt": (200, nil),
      "refunds-revision.txt": (200, nil), "statuses.txt": (200, nil), "consumption.txt": (202, nil),
      "consumption-bad.txt": (400, 4_000_000), "notification-history.txt": (200, nil),
      "notification-history-transaction.txt": (400, 4_000_014), "test-notification.txt": (404, 4_040_007),
      "test-notification-status.txt": (404, 4_040_008), "extend.txt": (404, nil), "order-lookup.txt": (404, nil),
      "wrong-method.txt": (405, nil), "unknown-path.txt": (404, nil),
    ]
    let api = try api()
    let seeds = files("corpus/api-request")
    XCTAssertEqual(Set(seeds.map(\.lastPathComponent)), Set(expected.keys), "every seed has an answer here")
    for seed in seeds {
      let response = api.handle(request(try Data(contentsOf: seed)))
      let name = seed.lastPathComponent
      let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
      XCTAssertEqual(response.status, expected[name]?.0, "\(name): \(String(decoding: response.body, as: UTF8.self))")
      XCTAssertEqual(object?["errorCode"] as? Int, expected[name]?.1, name)
    }
    // What the fuzzer once found, kept in Fuzz/regressions/api-request: an answer, never a server error.
    for file in files("regressions/api-request") {
      XCTAssertLessThan(api.handle(request(try Data(contentsOf: file))).status, 500, file.lastPathComponent)
    }
  }
}
