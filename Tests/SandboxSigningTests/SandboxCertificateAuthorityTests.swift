import Foundation
import StoreEngine
import SandboxSigning
import XCTest

final class SandboxCertificateAuthorityTests: XCTestCase {
  private var directories: [URL] = []

  override func tearDown() {
    for directory in directories { try? FileManager.default.removeItem(at: directory) }
    super.tearDown()
  }

  private func makeCA(regenerate: Bool = false, in directory: URL? = nil) throws -> SandboxCertificateAuthority {
    let base = try directory ?? SigningFixtures.temporaryDirectory("ca")
    directories.append(base)
    let caDirectory = directory ?? base.appendingPathComponent("ca")
    return try SandboxCertificateAuthority.open(
      in: caDirectory, validFrom: SigningFixtures.validFrom, regenerate: regenerate)
  }

  func test_firstOpen_createsChainWithApplesProfile() throws {
    let ca = try makeCA()
    XCTAssertTrue(ca.wasCreated)
    let intermediateOID = "1.2.840.113635.100.6.2.1"
    let leafOID = "1.2.840.113635.100.6.11.1"
    let basicConstraints = "2.5.29.19"
    let keyUsage = "2.5.29.15"
    let subjectKeyID = "2.5.29.14"
    let authorityKeyID = "2.5.29.35"

    XCTAssertEqual(ca.root.subject, ca.root.issuer, "root is self-signed")
    XCTAssertTrue(ca.root.isSigned(by: ca.root))
    XCTAssertTrue(ca.intermediate.isSigned(by: ca.root))
    XCTAssertTrue(ca.leaf.isSigned(by: ca.intermediate))
    XCTAssertFalse(ca.leaf.isSigned(by: ca.root))
    for cert in ca.chain {
      XCTAssertTrue(cert.hasP256Key, cert.subject)
      XCTAssertEqual(cert.notBefore, SigningFixtures.validFrom, cert.subject)
      XCTAssertEqual(cert.extensionCriticality(oid: basicConstraints), true, cert.subject)
      XCTAssertEqual(cert.extensionCriticality(oid: keyUsage), true, cert.subject)
      XCTAssertEqual(cert.extensionCriticality(oid: subjectKeyID), false, cert.subject)
      XCTAssertEqual(cert.extensionCriticality(oid: authorityKeyID), false, cert.subject)
    }
    XCTAssertEqual(ca.intermediate.extensionCriticality(oid: intermediateOID), false)
    XCTAssertEqual(ca.leaf.extensionCriticality(oid: leafOID), false)
    XCTAssertNil(ca.root.extensionCriticality(oid: intermediateOID))
    XCTAssertNil(ca.root.extensionCriticality(oid: leafOID))
    XCTAssertNil(ca.intermediate.extensionCriticality(oid: leafOID))
    XCTAssertNil(ca.leaf.extensionCriticality(oid: intermediateOID))

    let year: TimeInterval = 365.25 * 86_400
    XCTAssertEqual(ca.root.notAfter.timeIntervalSince(ca.root.notBefore), 40 * year, accuracy: 1)
    XCTAssertEqual(ca.intermediate.notAfter.timeIntervalSince(ca.intermediate.notBefore), 35 * year, accuracy: 1)
    XCTAssertEqual(ca.leaf.notAfter.timeIntervalSince(ca.leaf.notBefore), 30 * year, accuracy: 1)
  }

  func test_opensslText_showsExtensionsAndKeyUsage() throws {
    let ca = try makeCA()
    let texts = try ca.chain.map { try OpenSSLCLI.text(of: $0) }
    let (leaf, intermediate, root) = (texts[0], texts[1], texts[2])
    for text in texts {
      XCTAssertTrue(text.contains("ecdsa-with-SHA256"), text)
      XCTAssertTrue(text.contains("NIST CURVE: P-256"), text)
      XCTAssertTrue(text.contains("X509v3 Subject Key Identifier"), text)
      XCTAssertTrue(text.contains("X509v3 Authority Key Identifier"), text)
    }
    XCTAssertTrue(root.contains("X509v3 Basic Constraints: critical\n                CA:TRUE"), root)
    XCTAssertTrue(root.contains("Certificate Sign, CRL Sign"), root)
    XCTAssertTrue(intermediate.contains("CA:TRUE, pathlen:0"), intermediate)
    XCTAssertTrue(intermediate.contains("1.2.840.113635.100.6.2.1: \n"), intermediate)
    XCTAssertTrue(leaf.contains("CA:FALSE"), leaf)
    XCTAssertTrue(leaf.contains("Digital Signature"), leaf)
    XCTAssertTrue(leaf.contains("1.2.840.113635.100.6.11.1: \n"), leaf)
  }

  func test_opensslVerify_x509Strict_acceptsTheChain() throws {
    let ca = try makeCA()
    let output = try OpenSSLCLI.verifyStrict(
      leaf: ca.leaf, intermediate: ca.intermediate, root: ca.root, at: SigningFixtures.now)
    XCTAssertEqual(output.status, 0, output.text)
    XCTAssertTrue(output.text.contains(": OK"), output.text)
  }

  func test_opensslVerify_rejectsAnotherCAsRoot() throws {
    let ca = try makeCA()
    let other = try makeCA()
    let output = try OpenSSLCLI.verifyStrict(
      leaf: ca.leaf, intermediate: ca.intermediate, root: other.root, at: SigningFixtures.now)
    XCTAssertNotEqual(output.status, 0, output.text)
  }

  func test_permissions_directory0700_keys0600() throws {
    let base = try SigningFixtures.temporaryDirectory("perm")
    directories.append(base)
    let directory = base.appendingPathComponent("nested/ca")
    let ca = try SandboxCertificateAuthority.open(in: directory, validFrom: SigningFixtures.validFrom)
    XCTAssertEqual(try SigningFixtures.mode(directory), 0o700)
    for name in ["root-ca.key.pem", "intermediate-ca.key.pem", "signing.key.pem"] {
      XCTAssertEqual(try SigningFixtures.mode(directory.appendingPathComponent(name)), 0o600, name)
    }
    XCTAssertEqual(try SigningFixtures.mode(directory.appendingPathComponent("root-ca.pem")), 0o644)
    XCTAssertEqual(ca.directory, directory)
  }

  func test_looseDirectoryAndKeyModes_areTightenedOnOpen() throws {
    let ca = try makeCA()
    let key = ca.directory.appendingPathComponent("signing.key.pem")
    XCTAssertEqual(chmod(ca.directory.path, 0o755), 0)
    XCTAssertEqual(chmod(key.path, 0o644), 0)
    let reopened = try SandboxCertificateAuthority.open(in: ca.directory, validFrom: SigningFixtures.now)
    XCTAssertFalse(reopened.wasCreated)
    XCTAssertEqual(try SigningFixtures.mode(ca.directory), 0o700)
    XCTAssertEqual(try SigningFixtures.mode(key), 0o600)
  }

  func test_secondOpen_loadsTheSameChain() throws {
    let ca = try makeCA()
    let reopened = try SandboxCertificateAuthority.open(in: ca.directory, validFrom: SigningFixtures.now)
    XCTAssertFalse(reopened.wasCreated)
    XCTAssertEqual(reopened.root, ca.root)
    XCTAssertEqual(reopened.intermediate, ca.intermediate)
    XCTAssertEqual(reopened.leaf, ca.leaf)
    XCTAssertEqual(reopened.root.notBefore, SigningFixtures.validFrom, "validFrom is ignored when loading")
  }

  func test_corruptKey_isAClearErrorAndNothingIsRegenerated() throws {
    let ca = try makeCA()
    let key = ca.directory.appendingPathComponent("signing.key.pem")
    try Data("-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----\n".utf8).write(to: key)
    let rootBefore = try Data(contentsOf: ca.directory.appendingPathComponent("root-ca.pem"))

    XCTAssertThrowsError(try SandboxCertificateAuthority.open(in: ca.directory, validFrom: SigningFixtures.now)) {
      error in
      guard case .corrupt(let file, _) = error as? SandboxCAError else { return XCTFail("\(error)") }
      XCTAssertEqual(file, key.path)
      let message = String(describing: error)
      XCTAssertTrue(message.contains("signing.key.pem"), message)
      XCTAssertTrue(message.contains("--regenerate-ca"), message)
    }
    XCTAssertEqual(try Data(contentsOf: ca.directory.appendingPathComponent("root-ca.pem")), rootBefore)
    XCTAssertEqual(
      String(decoding: try Data(contentsOf: key), as: UTF8.self),
      "-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----\n")
  }

  func test_keyOfAnotherCertificate_isCorrupt() throws {
    let ca = try makeCA()
    let other = try makeCA()
    let key = "intermediate-ca.key.pem"
    try FileManager.default.removeItem(at: ca.directory.appendingPathComponent(key))
    try FileManager.default.copyItem(
      at: other.directory.appendingPathComponent(key), to: ca.directory.appendingPathComponent(key))
    XCTAssertThrowsError(try SandboxCertificateAuthority.open(in: ca.directory, validFrom: SigningFixtures.now)) {
      error in
      XCTAssertEqual(
        error as? SandboxCAError,
        .corrupt(
          file: ca.directory.appendingPathComponent(key).path, reason: "it is not the key of 'intermediate-ca.pem'"))
    }
  }

  func test_missingFile_isIncompleteNotRegenerated() throws {
    let ca = try makeCA()
    try FileManager.default.removeItem(at: ca.directory.appendingPathComponent("root-ca.key.pem"))
    XCTAssertThrowsError(try SandboxCertificateAuthority.open(in: ca.directory, validFrom: SigningFixtures.now)) {
      error in
      XCTAssertEqual(error as? SandboxCAError, .incomplete(directory: ca.directory.path, missing: ["root-ca.key.pem"]))
      XCTAssertTrue(String(describing: error).contains("'root-ca.key.pem' is missing"), "\(error)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: ca.directory.appendingPathComponent("root-ca.key.pem").path))
  }

  func test_regenerate_replacesADamagedCAWithANewRoot() throws {
    let ca = try makeCA()
    try Data("junk".utf8).write(to: ca.directory.appendingPathComponent("root-ca.pem"))
    let fresh = try SandboxCertificateAuthority.open(
      in: ca.directory, validFrom: SigningFixtures.validFrom, regenerate: true)
    XCTAssertTrue(fresh.wasCreated)
    XCTAssertNotEqual(fresh.root, ca.root)
    let reopened = try SandboxCertificateAuthority.open(in: ca.directory, validFrom: SigningFixtures.now)
    XCTAssertEqual(reopened.root, fresh.root)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: ca.directory.path).filter {
      $0.hasSuffix(".new")
    }
    XCTAssertEqual(leftovers, [])
  }

  func test_fileInPlaceOfDirectory_isRefused() throws {
    let base = try SigningFixtures.temporaryDirectory("file")
    directories.append(base)
    let path = base.appendingPathComponent("ca")
    try Data().write(to: path)
    XCTAssertThrowsError(try SandboxCertificateAuthority.open(in: path, validFrom: SigningFixtures.now)) { error in
      XCTAssertEqual(error as? SandboxCAError, .notADirectory(path: path.path))
    }
  }

  func test_exportRoot_PEMAndDERDescribeTheSameCertificate() throws {
    let ca = try makeCA()
    let pem = try ca.exportRoot(format: .pem)
    let der = try ca.exportRoot(format: .der)
    XCTAssertTrue(String(decoding: pem, as: UTF8.self).hasPrefix("-----BEGIN CERTIFICATE-----\n"))
    XCTAssertEqual(der.first, 0x30, "DER starts with a SEQUENCE")
    XCTAssertEqual(try Certificate(pem: pem), ca.root)
    XCTAssertEqual(try Certificate(der: der), ca.root)
    XCTAssertEqual(try Certificate(pemOrDER: pem).der, der)
    XCTAssertEqual(
      try Data(contentsOf: ca.directory.appendingPathComponent("root-ca.pem")), pem, "the exported PEM is the file")
  }
}

extension SandboxCertificateAuthorityTests {
  func test_existing_neverCreates_butLoadsWhatIsThere() throws {
    let base = try SigningFixtures.temporaryDirectory("existing")
    defer { try? FileManager.default.removeItem(at: base) }
    let directory = base.appendingPathComponent("ca")
    XCTAssertNil(try SandboxCertificateAuthority.existing(in: directory))
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path), "nothing created")
    let ca = try SandboxCertificateAuthority.open(in: directory, validFrom: SigningFixtures.validFrom)
    XCTAssertEqual(try SandboxCertificateAuthority.existing(in: directory)?.root, ca.root)
    try FileManager.default.removeItem(at: directory.appendingPathComponent("signing.pem"))
    XCTAssertThrowsError(try SandboxCertificateAuthority.existing(in: directory)) { error in
      XCTAssertEqual(error as? SandboxCAError, .incomplete(directory: directory.path, missing: ["signing.pem"]))
    }
  }

  func test_concurrentFirstOpens_agreeOnOneChain() throws {
    let base = try SigningFixtures.temporaryDirectory("race")
    defer { try? FileManager.default.removeItem(at: base) }
    let directory = base.appendingPathComponent("ca")
    let roots = RootCollector()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      roots.add(try? SandboxCertificateAuthority.open(in: directory, validFrom: SigningFixtures.validFrom).root.der)
    }
    let collected = roots.values
    XCTAssertEqual(collected.count, 4, "every open succeeded")
    XCTAssertEqual(Set(collected).count, 1, "one chain was created and the others loaded it")
  }
}

/// Collects results from concurrent work.
private final class RootCollector: Sendable {
  private let stored = Locked<[Data]>([])
  func add(_ value: Data?) {
    guard let value else { return }
    stored.withLock { $0.append(value) }
  }
  var values: [Data] { stored.withLock { $0 } }
}
