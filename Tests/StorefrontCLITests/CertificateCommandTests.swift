import Foundation
import XCTest

@testable import StorefrontCLI

/// `storefront certificate`, in-process: exporting the sandbox root for a backend.
final class CertificateCommandTests: XCTestCase {
  func testHelpDescribesEveryOption() {
    let run = CLIRun(["certificate", "--help"])
    XCTAssertEqual(run.code, 0)
    XCTAssertTrue(run.output.contains("USAGE: storefront certificate [--out <path>] [--der] [--regenerate-ca]"), run.output)
    for option in ["--out <path>", "--der", "--regenerate-ca", "--data-dir <dir>"] {
      XCTAssertTrue(run.output.contains("  \(option) "), option)
    }
    XCTAssertTrue(run.output.contains("No private key is ever printed."))
  }

  func testDERWithoutOutIsAUsageErrorAndCreatesNothing() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let run = CLIRun(["certificate", "--der", "--data-dir", data])
    XCTAssertEqual(run.code, 64)
    XCTAssertTrue(run.errorOutput.hasPrefix("Error: --der writes binary data; give --out PATH as well."), run.errorOutput)
    XCTAssertEqual(run.output, "")
    XCTAssertFalse(FileManager.default.fileExists(atPath: data))
  }

  func testOperandIsAUsageError() {
    let run = CLIRun(["certificate", "root.pem"])
    XCTAssertEqual(run.code, 64)
    XCTAssertTrue(run.errorOutput.contains("Unexpected argument 'root.pem': use --out PATH"), run.errorOutput)
  }

  func testPEMToStandardOutputIsStableAndHasNoKey() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let first = CLIRun(["certificate", "--data-dir", data])
    XCTAssertEqual(first.code, 0, first.errorOutput)
    XCTAssertEqual(first.errorOutput, "")
    XCTAssertTrue(first.output.hasPrefix("-----BEGIN CERTIFICATE-----\n"), first.output)
    XCTAssertTrue(first.output.hasSuffix("-----END CERTIFICATE-----\n"), first.output)
    XCTAssertEqual(first.output.components(separatedBy: "BEGIN CERTIFICATE").count, 2, "the root only, not the chain")
    XCTAssertFalse(first.output.contains("PRIVATE KEY"))
    XCTAssertEqual(CLIRun(["certificate", "--data-dir", data]).output, first.output, "the CA is made once and reused")
  }

  func testOutWritesPEMAndDERForms() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let pemPath = directory.appendingPathComponent("root.pem").path
    let derPath = directory.appendingPathComponent("root.der").path
    let pem = CLIRun(["certificate", "--out", pemPath, "--data-dir", data])
    XCTAssertEqual(pem.code, 0, pem.errorOutput)
    XCTAssertEqual(pem.output, "")
    XCTAssertEqual(pem.errorOutput, "Wrote the sandbox root certificate (PEM) to '\(pemPath)'.\n")
    let der = CLIRun(["certificate", "--der", "--out", derPath, "--data-dir", data])
    XCTAssertEqual(der.code, 0, der.errorOutput)
    XCTAssertEqual(der.errorOutput, "Wrote the sandbox root certificate (DER) to '\(derPath)'.\n")

    let pemText = try String(contentsOfFile: pemPath, encoding: .utf8)
    XCTAssertEqual(pemText, CLIRun(["certificate", "--data-dir", data]).output)
    let body = pemText.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    let derData = try Data(contentsOf: URL(fileURLWithPath: derPath))
    XCTAssertEqual(Data(base64Encoded: body), derData, "the DER file is the PEM's body")
    XCTAssertEqual(derData.first, 0x30, "DER starts with a SEQUENCE")
  }

  func testUnwritableOutExits73NamingThePath() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let out = directory.appendingPathComponent("no/such/folder/root.pem").path
    let run = CLIRun(["certificate", "--out", out, "--data-dir", directory.appendingPathComponent("data").path])
    XCTAssertEqual(run.code, 73)
    XCTAssertTrue(run.errorOutput.contains("cannot write '\(out)'"), run.errorOutput)
  }

  func testDataDirectoryAndKeysArePrivate() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data")
    XCTAssertEqual(CLIRun(["certificate", "--data-dir", data.path]).code, 0)
    XCTAssertEqual(try mode(data), 0o700, "Docs/DataAndFiles.md: the data directory is 0700")
    XCTAssertEqual(try mode(data.appendingPathComponent("ca")), 0o700)
    let keys = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("ca").path).filter { $0.hasSuffix(".key.pem") }
    XCTAssertEqual(keys.count, 3, "root, intermediate and signing keys")
    for key in keys {
      XCTAssertEqual(try mode(data.appendingPathComponent("ca").appendingPathComponent(key)), 0o600, key)
    }
  }

  func testDamagedCAIsReportedAndRegeneratedOnlyWhenAsked() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data")
    let original = CLIRun(["certificate", "--data-dir", data.path]).output
    try Data("garbage\n".utf8).write(to: data.appendingPathComponent("ca/root-ca.pem"))
    let damaged = CLIRun(["certificate", "--data-dir", data.path])
    XCTAssertEqual(damaged.code, 73)
    XCTAssertTrue(damaged.errorOutput.contains("root-ca.pem' is damaged"), damaged.errorOutput)
    XCTAssertTrue(damaged.errorOutput.contains("--regenerate-ca"), damaged.errorOutput)
    let regenerated = CLIRun(["certificate", "--regenerate-ca", "--data-dir", data.path])
    XCTAssertEqual(regenerated.code, 0, regenerated.errorOutput)
    XCTAssertTrue(regenerated.output.hasPrefix("-----BEGIN CERTIFICATE-----"))
    XCTAssertNotEqual(regenerated.output, original)
    XCTAssertEqual(CLIRun(["certificate", "--data-dir", data.path]).output, regenerated.output)
  }

  private func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try XCTUnwrap(attributes[.posixPermissions] as? Int) & 0o777
  }
}
