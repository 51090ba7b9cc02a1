import Foundation
import StoreEngine
import StoreScenario
import StorefrontTestSupport
import XCTest

/// `glitch NAME on|off|next [N]|1-in N [seed S]` (DECISIONS §46) and what the StoreKit 2 view reports.
final class GlitchScenarioTests: XCTestCase {
  func testTheFormsParse() throws {
    let steps = try ScenarioParser(catalog: FixtureCatalog.make()).parse("""
      glitch cancelled-after-success on
      glitch sheet-not-shown next
      glitch products-fail next 3
      glitch daemon-drop 1-in 4 seed 9
      glitch late-updates off
      """).get()
    XCTAssertEqual(steps.map(\.action), [
      .set(.glitch(.cancelledAfterSuccess, .every)), .set(.glitch(.sheetNotShown, .next(1))), .set(.glitch(.productsFail, .next(3))),
      .set(.glitch(.daemonDrop, .oneIn(4, seed: 9))), .set(.glitch(.lateUpdates, .off)),
    ])
    XCTAssertEqual(ScenarioStep.Control.glitch(.daemonDrop, .every).change, .glitch(.daemonDrop, .every))
  }

  func testBadInputIsALocatedIssue() {
    for (line, wanted) in [("glitch cancelled-after-succes on", "Did you mean 'cancelled-after-success'?"), ("glitch daemon-drop next 0", "Invalid glitch setting 'next 0'")] {
      guard case .failure(let found) = ScenarioParser(catalog: FixtureCatalog.make()).parse(line) else {
        XCTFail("expected an issue for \(line)")
        continue
      }
      let text = found.issues.map(\.description).joined(separator: "\n")
      XCTAssertTrue(text.contains(wanted), text)
    }
  }

  /// The checked-in example passes in both views, and the StoreKit 2 lines say what the app got.
  func testTheExamplePasses() throws {
    let text = try String(contentsOf: Self.root.appendingPathComponent("Examples/15-glitches.scenario"), encoding: .utf8)
    let catalog = try Self.defaultCatalog()
    for api in [StoreKitAPI.storeKit1, .storeKit2] {
      let store = try TestStore(catalog: catalog, dialogs: true)
      let steps = try ScenarioParser(catalog: store.queue.catalog).parse(text).get()
      var lines: [String] = []
      let result = ScenarioRunner(queue: store.queue, json: false, api: api) { lines.append($0) }.run(steps)
      XCTAssertEqual(result, .passed(steps: steps.count), "\(api):\n\(lines.joined(separator: "\n"))")
      XCTAssertEqual(store.queue.controls.glitches, [:], "the example switches every glitch off again")
      // What the app got: a cancelled purchase that succeeded, a thrown systemError, products that failed.
      XCTAssertFalse(lines.contains { $0.contains("error: ") }, lines.joined(separator: "\n"))
      guard api == .storeKit2 else { continue }
      XCTAssertTrue(lines.contains { $0.contains("userCancelled") }, lines.joined(separator: "\n"))
      XCTAssertEqual(lines.filter { $0.contains("systemError") }.count, 2, lines.joined(separator: "\n"))
    }
  }

  /// Without the glitch the same purchase is a success: the expectation can fail.
  func testWithoutTheGlitchTheExpectationFails() throws {
    let store = try TestStore()
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse("""
      account jake
      buy com.jake.sample.ExInAppPurchase.shopping
      confirm
      expect purchase-result last userCancelled
      """).get()
    let result = ScenarioRunner(queue: store.queue, json: false) { _ in }.run(steps)
    XCTAssertNotEqual(result, .passed(steps: steps.count))
  }

  /// The sheet that never appears: the `buy` reaches no store (nothing bought, no line); the retry buys.
  func testASheetThatNeverAppearsBuysNothing() throws {
    let store = try TestStore(dialogs: true)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse("""
      account jake
      glitch sheet-not-shown next
      buy com.jake.sample.ExInAppPurchase.shopping
      expect transactions 0
      buy com.jake.sample.ExInAppPurchase.shopping
      confirm
      expect purchase-result last verified
      expect transactions 1
      """).get()
    var lines: [String] = []
    let result = ScenarioRunner(queue: store.queue, json: false, api: .storeKit2) { lines.append($0) }.run(steps)
    XCTAssertEqual(result, .passed(steps: steps.count), lines.joined(separator: "\n"))
    XCTAssertEqual(lines.filter { $0.contains("sheetPresented") }.count, 1, lines.joined(separator: "\n"))
  }

  /// `glitch NAME next` set again, even to the same value, strikes again.
  func testNextSetAgainStrikesAgain() throws {
    let store = try TestStore(catalog: try Self.defaultCatalog(), dialogs: true)
    let steps = try ScenarioParser(catalog: store.queue.catalog).parse("""
      account jake
      glitch cancelled-after-success next
      buy com.jake.sample.ExInAppPurchase.coins100
      confirm
      expect purchase-result last userCancelled
      buy com.jake.sample.ExInAppPurchase.coins100
      confirm
      expect purchase-result last verified
      glitch cancelled-after-success next
      buy com.jake.sample.ExInAppPurchase.coins100
      confirm
      expect purchase-result last userCancelled
      expect updates 2
      """).get()
    var lines: [String] = []
    let result = ScenarioRunner(queue: store.queue, json: false, api: .storeKit2) { lines.append($0) }.run(steps)
    XCTAssertEqual(result, .passed(steps: steps.count), lines.joined(separator: "\n"))
  }

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The package's default catalog (`Catalog/Default.storekit`), which the examples are written for.
  static func defaultCatalog() throws -> Catalog {
    let url = root.appendingPathComponent("Catalog/Default.storekit")
    return try CatalogDecoder().decode(try Data(contentsOf: url), path: url.path)
  }
}
