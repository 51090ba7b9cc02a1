import Foundation
import SandboxSigning
import StoreEngine
import XCTest

final class VerifyToolTests: XCTestCase {
  private var directory: URL?

  override func tearDown() {
    if let directory { try? FileManager.default.removeItem(at: directory) }
    super.tearDown()
  }

  private func makeCA() throws -> SandboxCertificateAuthority {
    let base = try SigningFixtures.temporaryDirectory("tool")
    directory = base
    return try SandboxCertificateAuthority.open(
      in: base.appendingPathComponent("ca"), validFrom: SigningFixtures.validFrom)
  }

  // Surprising behaviour (verify every line): a bad line no longer hides the lines after it.
  func test_printsEachPayload_andNamesEveryFailingLine() throws {
    let ca = try makeCA()
    let signer = ca.signer()
    let context = SigningFixtures.context()
    let first = try signer.sign(payload: SignedPayloads.transaction(SigningFixtures.consumable(), context: context))
    let second = try signer.sign(payload: SignedPayloads.renewalInfo(SigningFixtures.renewalInfo(), context: context))
    let tampered = try TamperedJWS.editingPayload(first, replacing: #""quantity":3"#, with: #""quantity":9"#)
    let text = [first, "", "  \(second)  ", tampered, first].joined(separator: "\n") + "\n"

    let result = try VerifyTool.run(
      lines: VerifyTool.lines(of: text), root: ca.exportRoot(format: .pem), rootName: "root.pem",
      bundleID: SigningFixtures.bundleID, now: { SigningFixtures.now })
    XCTAssertEqual(
      result.outputLines,
      [
        String(decoding: try SignedPayloads.transaction(SigningFixtures.consumable(), context: context), as: UTF8.self),
        String(decoding: try SignedPayloads.renewalInfo(SigningFixtures.renewalInfo(), context: context), as: UTF8.self),
        String(decoding: try SignedPayloads.transaction(SigningFixtures.consumable(), context: context), as: UTF8.self),
      ])
    XCTAssertEqual(result.failures, [VerifyTool.Failure(line: 4, reason: .badSignature)])
    XCTAssertEqual(
      result.failure?.description,
      "line 4: tampered: the signature does not match the header and payload (the JWS was altered, "
        + "or signed with another key)")
  }

  func test_acceptsADERRoot_andReportsAWrongBundleID() throws {
    let ca = try makeCA()
    let jws = try ca.signer().sign(
      payload: SignedPayloads.transaction(SigningFixtures.nonConsumable(), context: SigningFixtures.context()))
    let ok = try VerifyTool.run(
      lines: [jws], root: ca.exportRoot(format: .der), rootName: "root.der", bundleID: SigningFixtures.bundleID,
      now: { SigningFixtures.now })
    XCTAssertNil(ok.failure)
    XCTAssertEqual(ok.outputLines.count, 1)

    let wrong = try VerifyTool.run(
      lines: [jws], root: ca.exportRoot(format: .der), rootName: "root.der", bundleID: "com.other",
      now: { SigningFixtures.now })
    XCTAssertEqual(wrong.outputLines, [])
    XCTAssertEqual(wrong.failure?.line, 1)
    XCTAssertEqual(wrong.failure?.reason.name, "wrongBundleID")
  }

  func test_rootThatIsNotACertificate_namesTheFile() {
    XCTAssertThrowsError(
      try VerifyTool.run(
        lines: [], root: Data("hello".utf8), rootName: "/tmp/x.pem", bundleID: nil, now: { SigningFixtures.now })
    ) { error in
      XCTAssertEqual(
        String(describing: error),
        "'/tmp/x.pem' is not a PEM or DER certificate; export the root with 'storefront certificate'.")
    }
  }
}
