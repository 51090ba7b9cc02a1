import Foundation
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

@testable import SandboxSigning

/// Apple's `SignedDataVerifier` accepts a signed transaction carrying `billingPlanType` (a
/// subscription whose catalog has billing plans, format 5.0 and 6.x).
final class AppleVerifierBillingPlanTests: XCTestCase {
  func testFormat6BillingPlanTypeIsAcceptedByApplesLibrary() throws {
    let apple: AppleVerifier
    do {
      apple = try AppleVerifier.prepare()
    } catch let unavailable as AppleVerifier.Unavailable {
      throw XCTSkip(unavailable.description)  // no Python venv or no PyPI here
    }
    let base = try SigningFixtures.temporaryDirectory("apple-billing-plan")
    addTeardownBlock { try? FileManager.default.removeItem(at: base) }
    let ca = try SandboxCertificateAuthority.open(in: base.appendingPathComponent("ca"), validFrom: SigningFixtures.validFrom)
    let rootFile = base.appendingPathComponent("root.der")
    try ca.exportRoot(format: .der).write(to: rootFile)
    var context = SigningFixtures.context()
    context.billingPlanType = "BILLED_UPFRONT"
    let payload = try SignedPayloads.transaction(SigningFixtures.autoRenewable(), context: context)
    XCTAssertTrue(String(decoding: payload, as: UTF8.self).contains(#""billingPlanType":"BILLED_UPFRONT""#))
    let jws = try ca.signer().sign(payload: payload)
    let verdicts = try apple.verify([
      AppleVerifier.Case(name: "billingPlan", kind: .transaction, jws: jws, rootDER: rootFile.path, bundleID: SigningFixtures.bundleID)
    ])
    let verdict = try XCTUnwrap(verdicts["billingPlan"])
    XCTAssertEqual(verdict.status, 0, verdict.cause ?? "no cause")
    XCTAssertEqual(verdict.decoded?.productId, "com.example.premium.monthly")
  }
}
