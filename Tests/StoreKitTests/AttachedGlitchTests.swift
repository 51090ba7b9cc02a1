import Foundation
import SQLiteLedger
import StoreEngine
import StoreKit
import StorefrontTestSupport
import XCTest

/// An attached app follows the glitches its storefront's Settings pane switched, as it follows Ask to
/// Buy and the age rating (DECISIONS §38, §46); its log, which the storefront's Log pane shows, says
/// which glitch struck.
final class AttachedGlitchTests: StoreKitTestCase {
  var directory: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("glitch-\(UUID().uuidString)", isDirectory: true)
  }

  override func tearDown() {
    super.tearDown()
    if let directory { try? FileManager.default.removeItem(at: directory) }
  }

  func testAnAttachedAppFollowsTheStorefrontsGlitches() async throws {
    let ledger = try SQLiteLedgerStore(directory: directory)
    var controls = SandboxControls()
    controls.glitches[.productsFail] = .next(1)
    controls.glitches[.daemonDrop] = .next(1)
    controls.glitches[.cancelledAfterSuccess] = .next(1)
    // Our parent process stands for the storefront (alive for the whole test, and not us).
    var storefront = AttachedProcess(
      session: ProcessSession().id(of: getppid()), role: .storefront, bundleID: "com.example.storefront", since: Date(),
      showsSheets: false, catalog: try Self.catalogURL.path)
    storefront.settings = DeviceSettings(controls)
    try ledger.commit([DeviceValues.register(storefront)])
    let environment = [
      "STOREFRONT_DATA_DIR": directory.path, "STOREFRONT_BUNDLE_ID": "com.example.glitched", "HOME": directory.path,
    ]
    try StoreKitEnvironment.shared.replace(with: .processDefault(environment: environment))

    do {
      _ = try await StoreKit.Product.products(for: [IDs.coins100])
      XCTFail("products loaded although the storefront switched products-fail on")
    } catch let error as StoreKit.StoreKitError {
      guard case .systemError(let underlying) = error else { return XCTFail("\(error)") }
      XCTAssertEqual((underlying as NSError).domain, "SKInternalErrorDomain")
    }
    let retried = try await StoreKit.Product.products(for: [IDs.coins100])
    let product = try XCTUnwrap(retried.first, "the retry loads")
    do {
      _ = try await product.purchase()
      XCTFail("the purchase went through although the storefront switched daemon-drop on")
    } catch let error as StoreKit.StoreKitError {
      guard case .systemError(let underlying) = error else { return XCTFail("\(error)") }
      XCTAssertEqual((underlying as NSError).code, 4097)
    }
    XCTAssertTrue(try ledger.allTransactions().isEmpty, "nothing was bought")
    // The retry buys, and purchase() says it was cancelled (cancelled-after-success).
    guard case .userCancelled = try await product.purchase() else { return XCTFail("expected userCancelled") }
    XCTAssertEqual(try ledger.allTransactions().map(\.state), [.purchased])
    let lines = DeviceValues.logs(in: try ledger.load().deviceValues).values.flatMap(\.lines)
    XCTAssertTrue(lines.contains { $0.hasPrefix("glitch products-fail:") }, "\(lines)")
    XCTAssertTrue(lines.contains { $0.hasPrefix("glitch daemon-drop:") }, "\(lines)")
    XCTAssertTrue(lines.contains { $0.hasPrefix("glitch cancelled-after-success:") }, "\(lines)")
  }
}
