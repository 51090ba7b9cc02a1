import Foundation
import StoreEngine
import XCTest

@testable import SandboxSigning

final class JWSVerifierTests: XCTestCase {
  private var directories: [URL] = []

  override func tearDown() {
    for directory in directories { try? FileManager.default.removeItem(at: directory) }
    super.tearDown()
  }

  private func makeCA(lifetimes: SandboxCertificateAuthority.Lifetimes = .standard) throws -> SandboxCertificateAuthority {
    let directory = try SigningFixtures.temporaryDirectory("verify")
    directories.append(directory)
    return try SandboxCertificateAuthority.open(
      in: directory.appendingPathComponent("ca"), validFrom: SigningFixtures.validFrom, lifetimes: lifetimes)
  }

  private func verifier(_ ca: SandboxCertificateAuthority, bundleID: String? = SigningFixtures.bundleID) -> JWSVerifier {
    ca.verifier(bundleID: bundleID, now: { SigningFixtures.now })
  }

  private func signedTransaction(
    _ ca: SandboxCertificateAuthority, _ transaction: PaymentTransaction = SigningFixtures.autoRenewable(),
    signedDate: Date = SigningFixtures.now, environment: String = "Sandbox"
  ) throws -> String {
    try ca.signer().sign(
      payload: SignedPayloads.transaction(
        transaction, context: SigningFixtures.context(signedDate: signedDate, environment: environment)))
  }

  private func assertFails(
    _ jws: String, with verifier: JWSVerifier, _ expected: JWSVerificationFailure,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    do {
      _ = try verifier.verify(jws)
      XCTFail("verified, expected \(expected)", file: file, line: line)
    } catch {
      XCTAssertEqual(error, expected, file: file, line: line)
    }
  }

  func test_signedTransaction_hasAppleShapedHeaderAndVerifies() throws {
    let ca = try makeCA()
    let payload = try SignedPayloads.transaction(SigningFixtures.autoRenewable(), context: SigningFixtures.context())
    let jws = try ca.signer().sign(payload: payload)
    let decoded = try CompactJWS(jws)
    XCTAssertEqual(
      String(decoding: decoded.headerData, as: UTF8.self),
      #"{"alg":"ES256","x5c":["# + ca.chain.map { "\"\($0.der.base64EncodedString())\"" }.joined(separator: ",") + "]}")
    XCTAssertEqual(decoded.signature.count, 64, "raw r||s")
    XCTAssertEqual(decoded.payloadData, payload)

    let verified = try verifier(ca).verify(jws)
    XCTAssertEqual(verified.jws.payloadData, payload)
    XCTAssertEqual(verified.chain.map(\.der), [ca.leaf.der, ca.intermediate.der])
  }

  func test_renewalInfo_verifiesWithoutABundleID() throws {
    let ca = try makeCA()
    let jws = try SignedPayloads.signedRenewalInfo(
      SigningFixtures.renewalInfo(), signedDate: SigningFixtures.now, signer: ca.signer())
    let verified = try verifier(ca).verify(jws)
    XCTAssertEqual(try verified.jws.decodePayload(as: JWSRenewalInfoPayload.self).renewalPrice, 10990)
  }

  func test_oneByteTamper_isRejectedAsTampered() throws {
    let ca = try makeCA()
    let jws = try signedTransaction(ca)
    let tampered = try TamperedJWS.editingPayload(jws, replacing: #""price":10990"#, with: #""price":20990"#)
    assertFails(tampered, with: verifier(ca), .badSignature)
    XCTAssertEqual(JWSVerificationFailure.badSignature.name, "tampered")
  }

  func test_signatureSignedByAnotherKey_isRejected() throws {
    let ca = try makeCA()
    let impostor = ES256Signer(key: try PrivateKey.generateP256(), chain: ca.chain)
    let jws = try impostor.sign(
      payload: SignedPayloads.transaction(SigningFixtures.consumable(), context: SigningFixtures.context()))
    assertFails(jws, with: verifier(ca), .badSignature)
  }

  func test_anotherRoot_isUnknownRoot() throws {
    let ca = try makeCA()
    let other = try makeCA()
    assertFails(try signedTransaction(ca), with: verifier(other), .unknownRoot)
  }

  func test_intermediateAsTrustedRoot_isNotAPartialChain() throws {
    let ca = try makeCA()
    let verifier = JWSVerifier(
      trustedRoots: [ca.intermediate], bundleID: nil, now: { SigningFixtures.now })
    assertFails(try signedTransaction(ca), with: verifier, .unknownRoot)
  }

  func test_wrongBundleID_andWrongEnvironment() throws {
    let ca = try makeCA()
    let jws = try signedTransaction(ca)
    assertFails(
      jws, with: verifier(ca, bundleID: "com.other.app"),
      .wrongBundleID(expected: "com.other.app", found: SigningFixtures.bundleID))
    XCTAssertNoThrow(try verifier(ca, bundleID: nil).verify(jws), "nil bundle id skips the check")
    let production = try signedTransaction(ca, environment: "Production")
    assertFails(production, with: verifier(ca), .wrongEnvironment(expected: "Sandbox", found: "Production"))
  }

  func test_expiredLeafAtSignedDate_isExpired_butValidEarlierDatesPass() throws {
    let year: TimeInterval = 365.25 * 86_400
    let ca = try makeCA(lifetimes: .init(root: 40 * year, intermediate: 35 * year, leaf: 86_400))
    let leafName = "Storefront Sandbox StoreKit Signing"
    assertFails(try signedTransaction(ca), with: verifier(ca), .expired(certificate: leafName, at: SigningFixtures.now))
    let early = SigningFixtures.validFrom.addingTimeInterval(3_600)
    XCTAssertNoThrow(try verifier(ca).verify(try signedTransaction(ca, signedDate: early)))
  }

  func test_signedDateBeforeTheChain_isNotYetValid() throws {
    let ca = try makeCA()
    let before = SigningFixtures.validFrom.addingTimeInterval(-86_400)
    assertFails(
      try signedTransaction(ca, signedDate: before), with: verifier(ca),
      // OpenSSL checks validity from the root down, so the root is the one named.
      .notYetValid(certificate: "Storefront Sandbox Root CA", at: before))
  }

  func test_leafWithoutApplesOID_isRejected() throws {
    let ca = try makeCA()
    let directory = ca.directory
    let intermediateKey = try PrivateKey(pem: Data(contentsOf: directory.appendingPathComponent("intermediate-ca.key.pem")))
    let key = try PrivateKey.generateP256()
    let bareLeaf = try CertificateProfile(
      subject: [("CN", "Bare Leaf")], notBefore: SigningFixtures.validFrom,
      notAfter: SigningFixtures.now.addingTimeInterval(86_400), basicConstraints: nil, keyUsage: nil
    ).issue(for: key, issuer: (ca.intermediate, intermediateKey))
    let jws = try ES256Signer(key: key, chain: [bareLeaf, ca.intermediate, ca.root]).sign(
      payload: SignedPayloads.transaction(SigningFixtures.consumable(), context: SigningFixtures.context()))
    assertFails(jws, with: verifier(ca), .missingExtension(oid: "1.2.840.113635.100.6.11.1", certificate: "Bare Leaf"))
  }

  func test_structuralFailures() throws {
    let ca = try makeCA()
    let payload = try SignedPayloads.transaction(SigningFixtures.consumable(), context: SigningFixtures.context())
    let key = try PrivateKey.generateP256()
    let twoCerts = try ES256Signer(key: key, chain: [ca.leaf, ca.intermediate]).sign(payload: payload)
    assertFails(twoCerts, with: verifier(ca), .chainLength(2))
    assertFails(try UnsignedTestSigner().sign(payload: payload), with: verifier(ca), .missingX5C)

    let x5c = ca.chain.map { "\"\($0.der.base64EncodedString())\"" }.joined(separator: ",")
    assertFails(
      TamperedJWS.withHeader(#"{"alg":"ES384","x5c":[\#(x5c)]}"#, payload: payload), with: verifier(ca),
      .unsupportedAlgorithm("ES384"))
    let urlSafe = ca.chain.map { "\"\($0.der.base64URLEncoded)\"" }.joined(separator: ",")
    assertFails(
      TamperedJWS.withHeader(#"{"alg":"ES256","x5c":[\#(urlSafe)]}"#, payload: payload), with: verifier(ca),
      .invalidCertificate(index: 0))
    do {
      _ = try verifier(ca).verify("not a jws")
      XCTFail("verified garbage")
    } catch {
      XCTAssertEqual(error.name, "malformed")
      XCTAssertTrue(error.description.contains("3 dot-separated segments"), error.description)
    }
  }

  func test_xcodeSigner_makesXcodeShapedJWS() throws {
    let signer = try XcodeSigner(validFrom: SigningFixtures.now.addingTimeInterval(-86_400))
    XCTAssertEqual(signer.environment, "Xcode")
    XCTAssertEqual(signer.certificate.subject, "O=StoreKit Testing in Xcode,CN=StoreKit Testing in Xcode")
    XCTAssertEqual(signer.certificate.subject, signer.certificate.issuer)
    XCTAssertEqual(
      signer.certificate.notAfter.timeIntervalSince(signer.certificate.notBefore), 365 * 86_400, accuracy: 1)
    let jws = try SignedPayloads.signedTransaction(
      SigningFixtures.consumable(), bundleID: SigningFixtures.bundleID, signedDate: SigningFixtures.now,
      storefrontID: "143441", signer: signer)
    let decoded = try CompactJWS(jws)
    XCTAssertEqual(
      decoded.header,
      JWSHeader(alg: "ES256", typ: "JWT", kid: "Apple_Xcode_Key", x5c: [signer.certificate.der.base64EncodedString()]))
    XCTAssertEqual(decoded.payloadString("environment"), "Xcode")

    let xcodeVerifier = JWSVerifier(
      trustedRoots: [], bundleID: SigningFixtures.bundleID, environment: "Xcode", now: { SigningFixtures.now })
    XCTAssertNoThrow(try xcodeVerifier.verify(jws))
    let tampered = try TamperedJWS.editingPayload(jws, replacing: #""quantity":3"#, with: #""quantity":4"#)
    assertFails(tampered, with: xcodeVerifier, .badSignature)
  }

  func test_failureMessagesNameTheProblem() {
    XCTAssertEqual(
      JWSVerificationFailure.wrongBundleID(expected: "a.b", found: "c.d").description,
      "wrong bundle id: the payload has 'c.d', expected 'a.b' (set it with --bundle-id)")
    XCTAssertTrue(JWSVerificationFailure.unknownRoot.description.contains("--root"))
    XCTAssertEqual(
      JWSVerificationFailure.expired(certificate: "Leaf", at: SigningFixtures.now).description,
      "certificate 'Leaf' had expired at the signedDate 2024-05-01T00:00:00Z")
  }
}
