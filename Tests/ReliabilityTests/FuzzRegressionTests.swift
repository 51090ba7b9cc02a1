import Foundation
import SandboxSigning
import StoreEngine
import StoreScenario
import XCTest

/// Every input under Fuzz/regressions/<target>/ (crashes found by the fuzzers and the bad-input
/// table, now fixed) and every seed under Fuzz/corpus/<target>/, fed in-process to the code each
/// fuzz target exercises: it must return, not trap, and stay fast.
final class FuzzRegressionTests: XCTestCase {
  static let fuzzRoot = StorefrontProcess.packageRoot.appendingPathComponent("Fuzz")

  private func inputs(_ target: String) throws -> [URL] {
    var urls: [URL] = []
    for folder in ["regressions", "corpus"] {
      let directory = Self.fuzzRoot.appendingPathComponent(folder).appendingPathComponent(target)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      urls += names.sorted().map { directory.appendingPathComponent($0) }
    }
    XCTAssertFalse(urls.isEmpty, "no inputs for \(target)")
    return urls
  }

  private func timed(_ name: String, _ body: () throws -> Void) rethrows {
    let started = Date()
    try body()
    XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(name) took too long")
  }

  func testCatalogDecoderInputs() throws {
    for url in try inputs("catalog-decoder") {
      let data = try Data(contentsOf: url)
      timed(url.lastPathComponent) { _ = try? CatalogDecoder().decode(data, path: url.path) }
    }
  }

  func testScenarioParserInputs() throws {
    let catalogURL = StorefrontProcess.packageRoot.appendingPathComponent("Catalog/Default.storekit")
    let catalog = try CatalogDecoder().decode(try Data(contentsOf: catalogURL), path: catalogURL.path)
    for url in try inputs("scenario-parser") {
      let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
      timed(url.lastPathComponent) {
        if case .success(let steps) = ScenarioParser(catalog: catalog).parse(text) {
          for step in steps {
            if case .advance(let duration) = step.action { _ = duration.after(Date(timeIntervalSince1970: 1_767_225_600)) }
          }
        }
      }
    }
  }

  func testOverflowingDurationsAreIssuesNotTraps() throws {
    let catalog = Catalog(products: [])
    for text in ["advance 1317624576693539402w", "advance P1317624576693539402W", "advance P9223372036854775807D7W", "advance P999999999Y", "advance 10001y"] {
      guard case .failure(let issues) = ScenarioParser(catalog: catalog).parse(text) else {
        XCTFail("'\(text)' should be rejected")
        continue
      }
      XCTAssertEqual(issues.issues.first?.column, 9, text)
    }
    guard case .success = ScenarioParser(catalog: catalog).parse("advance 9999y\nadvance P100Y") else {
      return XCTFail("long but sane durations still parse")
    }
  }

  func testMillisecondsClampInsteadOfTrapping() {
    XCTAssertEqual(SignedPayloads.milliseconds(Date(timeIntervalSince1970: 1e300)), .max)
    XCTAssertEqual(SignedPayloads.milliseconds(Date(timeIntervalSince1970: -1e300)), .min)
    XCTAssertEqual(SignedPayloads.milliseconds(Date(timeIntervalSince1970: .nan)), 0)
    XCTAssertEqual(SignedPayloads.milliseconds(Date(timeIntervalSince1970: 1.5)), 1500)
  }

  func testJWSVerifierInputs() throws {
    let rootURL = Self.fuzzRoot.appendingPathComponent("corpus/jws-verifier-root.pem")
    let root = try VerifyTool.loadRoot(try Data(contentsOf: rootURL), name: rootURL.path)
    let verifier = JWSVerifier(
      trustedRoots: [root], bundleID: "com.example.storefront", environment: "Sandbox",
      now: { Date(timeIntervalSince1970: 1_767_225_600) })
    var verified = 0
    for url in try inputs("jws-verifier") {
      let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
      timed(url.lastPathComponent) {
        _ = try? CompactJWS(text)
        if (try? verifier.verify(text)) != nil { verified += 1 }
      }
    }
    XCTAssertEqual(verified, 3, "the three valid seeds verify against the checked-in root")
  }
}
