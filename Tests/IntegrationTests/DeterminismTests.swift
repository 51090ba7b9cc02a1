import Foundation
import StorefrontProcessTestSupport
import XCTest

/// A scenario with the same --seed replays identically on fresh data directories (Docs/Scenarios.md:
/// the seed makes a run replayable); only ES256 signatures, which are randomized, may differ.
final class DeterminismTests: XCTestCase {
  /// Twenty purchases that each fail with probability ½, so the seed decides the outcome.
  static let coinFlips: String = {
    var lines = ["account flipper", "set dialogs off", "fail purchase unknown chance=0.5"]
    for _ in 0..<20 { lines += ["buy com.jake.sample.ExInAppPurchase.coins100", "finish last"] }
    return lines.joined(separator: "\n") + "\n"
  }()

  func testSameSeedGivesIdenticalOutputApartFromSignatures() throws {
    let directory = try TemporaryDirectory(self)
    let flips = try directory.write("flips.scenario", Self.coinFlips)
    let scripts = try ExampleScenarios.all().map(\.path) + [flips]
    // The second data directory trusts the same CA, so the JWS headers (x5c) must match byte for byte.
    let shared = directory.path("first")
    let certificate = try StorefrontBinary.run(["certificate", "--data-dir", shared, "--out", directory.path("root.pem")], in: directory)
    XCTAssertEqual(certificate.status, 0, certificate.summary)
    for (index, script) in scripts.enumerated() {
      let first = directory.path("a\(index)")
      let second = directory.path("b\(index)")
      for data in [first, second] {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: shared + "/ca", toPath: data + "/ca")
      }
      // An example with its own catalog beside it (14-bundles.storekit) runs with it.
      let catalog = ExampleScenarios.options(for: URL(fileURLWithPath: script))
      let a = try StorefrontBinary.run(["run", script, "--json", "--seed", "42", "--data-dir", first] + catalog, in: directory)
      let b = try StorefrontBinary.run(["run", script, "--json", "--seed", "42", "--data-dir", second] + catalog, in: directory)
      XCTAssertEqual(a.status, 0, a.summary)
      XCTAssertEqual(b.status, 0, b.summary)
      let name = URL(fileURLWithPath: script).lastPathComponent
      let left = EventLine.parse(a.stdout, source: name).map { $0.withoutSignatures() }
      let right = EventLine.parse(b.stdout, source: name).map { $0.withoutSignatures() }
      XCTAssertFalse(left.isEmpty)
      assertSameLines(left, right, name)
      // The signatures themselves are fresh each run (ES256 is randomized), so something was removed.
      if a.stdout.contains("signedTransaction") { XCTAssertNotEqual(a.stdout, b.stdout, "\(name): ES256 signatures repeated") }
    }
  }

  func testSameSeedOnFreshDataDirectoriesEachWithItsOwnCA() throws {
    let directory = try TemporaryDirectory(self)
    let script = try ExampleScenarios.named("07").path
    let a = try StorefrontBinary.run(["run", script, "--json", "--seed", "7", "--data-dir", directory.path("a")], in: directory)
    let b = try StorefrontBinary.run(["run", script, "--json", "--seed", "7", "--data-dir", directory.path("b")], in: directory)
    XCTAssertEqual(a.status, 0, a.summary)
    XCTAssertEqual(b.status, 0, b.summary)
    let left = EventLine.parse(a.stdout, source: "a").map { $0.withoutSignatures(dropCertificates: true) }
    let right = EventLine.parse(b.stdout, source: "b").map { $0.withoutSignatures(dropCertificates: true) }
    assertSameLines(left, right, "07 on two fresh data directories")
  }

  func testTheSeedDecidesSimulatedFailures() throws {
    let directory = try TemporaryDirectory(self)
    let script = try directory.write("flips.scenario", Self.coinFlips)
    var outcomes: [String: [String]] = [:]
    for seed in ["1", "2"] {
      let result = try StorefrontBinary.run(["run", script, "--json", "--seed", seed, "--data-dir", directory.path("seed\(seed)")], in: directory)
      XCTAssertEqual(result.status, 0, result.summary)
      let states = EventLine.parse(result.stdout, source: seed).filter { $0.event == "transactionUpdated" && $0.state != "purchasing" }
        .compactMap(\.state)
      XCTAssertEqual(states.count, 20)
      XCTAssertTrue(states.contains("failed") && states.contains("purchased"), "seed \(seed): \(states)")
      outcomes[seed] = states
    }
    XCTAssertNotEqual(outcomes["1"], outcomes["2"], "different seeds gave the same 20 coin flips")
  }

  private func assertSameLines(_ left: [String], _ right: [String], _ name: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(left.count, right.count, "\(name): different number of events", file: file, line: line)
    for (index, pair) in zip(left, right).enumerated() where pair.0 != pair.1 {
      XCTFail("\(name): event \(index + 1) differs:\n\(pair.0.prefix(400))\n\(pair.1.prefix(400))", file: file, line: line)
      return
    }
  }
}
