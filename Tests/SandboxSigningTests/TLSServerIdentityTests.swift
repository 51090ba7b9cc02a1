import Foundation
import SandboxSigning
import XCTest

/// The TLS server certificate `serve --tls` uses: issued by the sandbox root for Apple's hosts, made
/// once, reused, and re-issued when it would not do.
final class TLSServerIdentityTests: XCTestCase {
  private var directories: [URL] = []
  private let now = SigningFixtures.now

  override func tearDown() {
    for directory in directories { try? FileManager.default.removeItem(at: directory) }
    super.tearDown()
  }

  private func makeCA() throws -> SandboxCertificateAuthority {
    let base = try SigningFixtures.temporaryDirectory("tls")
    directories.append(base)
    return try SandboxCertificateAuthority.open(in: base.appendingPathComponent("ca"), validFrom: SigningFixtures.validFrom)
  }

  private func mode(_ url: URL) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
  }

  func test_firstCall_issuesAServerCertificateForApplesHostsFromTheRoot() throws {
    let ca = try makeCA()
    let identity = try ca.tlsServerIdentity(now: now)
    XCTAssertTrue(identity.wasIssued)
    XCTAssertTrue(identity.certificate.isSigned(by: ca.root))
    XCTAssertEqual(identity.rootCertificateFile.lastPathComponent, "root-ca.pem")
    XCTAssertEqual(try Data(contentsOf: identity.certificateFile), identity.certificatePEM)
    XCTAssertEqual(try mode(ca.directory.appendingPathComponent(TLSServerIdentity.FileName.key)), 0o600)
    for host in [
      "api.storekit.apple.com", "api.storekit-sandbox.apple.com", "api.storekit.itunes.apple.com",
      "api.storekit-sandbox.itunes.apple.com", "buy.itunes.apple.com", "sandbox.itunes.apple.com", "localhost",
    ] {
      XCTAssertTrue(identity.certificate.matches(hostName: host), host)
    }
    XCTAssertTrue(identity.certificate.matches(ipAddress: "127.0.0.1"))
    XCTAssertTrue(identity.certificate.matches(ipAddress: "::1"))
    XCTAssertFalse(identity.certificate.matches(hostName: "example.com"))
    XCTAssertFalse(identity.certificate.matches(ipAddress: "10.0.0.1"))
    XCTAssertLessThanOrEqual(identity.certificate.notBefore, now)
    XCTAssertEqual(identity.certificate.notAfter.timeIntervalSince(identity.certificate.notBefore), TLSServerIdentity.lifetime, accuracy: 1)

    let text = try OpenSSLCLI.run(["x509", "-noout", "-ext", "extendedKeyUsage,keyUsage,basicConstraints", "-in", identity.certificateFile.path])
    XCTAssertEqual(text.status, 0, text.text)
    XCTAssertTrue(text.text.contains("TLS Web Server Authentication"), text.text)
    XCTAssertTrue(text.text.contains("Digital Signature"), text.text)
    XCTAssertTrue(text.text.contains("CA:FALSE"), text.text)
    let verify = try OpenSSLCLI.run([
      "verify", "-x509_strict", "-purpose", "sslserver", "-attime", String(Int(now.timeIntervalSince1970)),
      "-CAfile", identity.rootCertificateFile.path, identity.certificateFile.path,
    ])
    XCTAssertEqual(verify.status, 0, verify.text)
  }

  func test_laterCalls_reuseTheCertificateUntilItNearsExpiry() throws {
    let ca = try makeCA()
    let first = try ca.tlsServerIdentity(now: now)
    let again = try ca.tlsServerIdentity(now: now.addingTimeInterval(86_400))
    XCTAssertFalse(again.wasIssued)
    XCTAssertEqual(again.certificate, first.certificate)
    XCTAssertEqual(again.keyPEM, first.keyPEM)

    let nearExpiry = first.certificate.notAfter.addingTimeInterval(-TLSServerIdentity.renewalMargin + 60)
    let renewed = try ca.tlsServerIdentity(now: nearExpiry)
    XCTAssertTrue(renewed.wasIssued)
    XCTAssertNotEqual(renewed.certificate, first.certificate)
    XCTAssertGreaterThan(renewed.certificate.notAfter, first.certificate.notAfter)
  }

  func test_missingDamagedOrForeignFiles_areIssuedAgain() throws {
    let ca = try makeCA()
    let certificate = ca.directory.appendingPathComponent(TLSServerIdentity.FileName.certificate)
    let key = ca.directory.appendingPathComponent(TLSServerIdentity.FileName.key)
    let first = try ca.tlsServerIdentity(now: now)

    try FileManager.default.removeItem(at: key)
    let afterMissingKey = try ca.tlsServerIdentity(now: now)
    XCTAssertTrue(afterMissingKey.wasIssued)

    try Data("not a certificate".utf8).write(to: certificate)
    let afterDamage = try ca.tlsServerIdentity(now: now)
    XCTAssertTrue(afterDamage.wasIssued)
    XCTAssertTrue(afterDamage.certificate.isSigned(by: ca.root))

    // A certificate from another CA's root (the CA was regenerated) is not served.
    let other = try makeCA()
    try other.tlsServerIdentity(now: now).certificatePEM.write(to: certificate)
    try other.tlsServerIdentity(now: now).keyPEM.write(to: key)
    let afterForeign = try ca.tlsServerIdentity(now: now)
    XCTAssertTrue(afterForeign.wasIssued)
    XCTAssertTrue(afterForeign.certificate.isSigned(by: ca.root))
    XCTAssertNotEqual(afterForeign.certificate, first.certificate)
    XCTAssertEqual(try mode(key), 0o600)
  }
}
