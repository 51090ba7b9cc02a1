import Foundation
import XCTest

@testable import StorefrontCLI

/// `storefront run` against Apple's behaviour, with the real signer and verifier: audit rows B27,
/// B70 and the "surprising" `expect signed`.
final class RunFidelityTests: XCTestCase {
  static let removeAds = "com.jake.sample.ExInAppPurchase.shopping"
  static let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"

  private func write(_ text: String, to directory: URL, _ name: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  // Surprising behaviour (expect signed): it verifies the chain to this data directory's root.
  func testSurprisingExpectSignedVerifiesTheJWSAgainstTheSandboxRoot() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let good = try write("account a\nset dialogs off\nbuy \(Self.monthly)\nexpect signed last\n", to: directory, "good.scenario")
    let passed = CLIRun(["run", good, "--data-dir", data])
    XCTAssertEqual(passed.code, 0, passed.errorOutput)

    let broken = try write("""
      account a
      set dialogs off
      fail verification unknown
      buy \(Self.removeAds)
      expect unverified last
      expect signed last

      """, to: directory, "broken.scenario")
    let failed = CLIRun(["run", broken, "--data-dir", data])
    XCTAssertEqual(failed.code, 1)
    XCTAssertTrue(failed.errorOutput.hasPrefix("\(broken):6: expectation failed: expected transaction "), failed.errorOutput)
    XCTAssertTrue(failed.errorOutput.contains("to carry a verified signedTransaction, but its signature does not verify: tampered"), failed.errorOutput)

    let unverified = try write("account a\nset dialogs off\nbuy \(Self.removeAds)\nexpect unverified last\n", to: directory, "unverified.scenario")
    // A fresh data directory: a re-download would carry the broken JWS of the purchase above (B23).
    let verified = CLIRun(["run", unverified, "--data-dir", directory.appendingPathComponent("data2").path])
    XCTAssertEqual(verified.code, 1)
    XCTAssertTrue(verified.errorOutput.contains("to be unverified, but its signedTransaction verifies"), verified.errorOutput)
  }

  // B27: finishing a purchasing transaction crashes a real app; the run stops with 134.
  func testB27FinishingAPurchasingTransactionExits134() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let script = try write("account a\nbuy \(Self.removeAds)\nfinish last\nconfirm\n", to: directory, "crash.scenario")
    let run = CLIRun(["run", script, "--json", "--data-dir", data])
    XCTAssertEqual(run.code, 134)
    XCTAssertEqual(ExitCode.appCrashed, 134)
    let last = try XCTUnwrap(run.output.split(separator: "\n").last)
    XCTAssertTrue(last.contains("\"event\":\"appCrashed\"") && last.contains("\"exception\":\"NSInternalInconsistencyException\""), String(last))
    XCTAssertTrue(run.errorOutput.hasPrefix("\(script):3: crashed: The app would have crashed: finishTransaction on transaction "), run.errorOutput)
    XCTAssertTrue(run.errorOutput.contains("Add `expect crash` after this line"), run.errorOutput)

    let expected = try write("account b\nbuy \(Self.removeAds)\nfinish last\nexpect crash\nconfirm\nexpect owned \(Self.removeAds)\n", to: directory, "expected.scenario")
    let passed = CLIRun(["run", expected, "--data-dir", data])
    XCTAssertEqual(passed.code, 0, passed.errorOutput)
    XCTAssertTrue(CLIRun(["run", "--help"]).output.contains("134 a line did what crashes a real app"))
  }

  // B70: a product the catalog lacks can be bought (a warning); a product removed from the catalog
  // keeps its history: its unfinished transaction comes again, it stays owned and restorable, and
  // a new payment for it fails with storeProductNotAvailable.
  func testB70AProductRemovedFromTheCatalogKeepsItsPastAndRefusesNewPayments() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let first = try write("account a\nset dialogs off\nbuy \(Self.removeAds)\nbuy com.example.never.sold\nexpect error last paymentInvalid\nfinish last\n", to: directory, "first.scenario")
    let bought = CLIRun(["run", first, "--data-dir", data])
    XCTAssertEqual(bought.code, 0, bought.errorOutput)
    XCTAssertEqual(bought.errorOutput, "\(first):4:5: warning: Product 'com.example.never.sold' is not in the catalog; the store will refuse the payment.\n")

    let catalogURL = CLIFiles.packageRoot.appendingPathComponent("Catalog/Default.storekit")
    var catalog = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: catalogURL)) as? [String: Any])
    let products = try XCTUnwrap(catalog["products"] as? [[String: Any]])
    catalog["products"] = products.filter { $0["productID"] as? String != Self.removeAds }
    let reduced = directory.appendingPathComponent("reduced.storekit")
    try JSONSerialization.data(withJSONObject: catalog).write(to: reduced)

    let second = try write("""
      expect unfinished 1
      expect owned \(Self.removeAds)
      buy \(Self.removeAds)
      expect error last storeProductNotAvailable
      finish all
      restore
      expect restored 1
      expect transactions 4

      """, to: directory, "second.scenario")
    let relaunched = CLIRun(["run", second, "--json", "--data-dir", data, "--catalog", reduced.path])
    XCTAssertEqual(relaunched.code, 0, relaunched.errorOutput)
    let lines = relaunched.output.split(separator: "\n")
    XCTAssertTrue(lines.first?.contains("\"productId\":\"\(Self.removeAds)\"") == true && lines.first?.contains("\"state\":\"purchased\"") == true,
      "the unfinished transaction is delivered again at launch: \(lines.first ?? "")")
    XCTAssertEqual(relaunched.errorOutput.split(separator: "\n").map { $0.contains("warning: Product '\(Self.removeAds)' is not in the catalog") }, [true, true])
  }
}
