import Foundation
import StorefrontProcessTestSupport
import XCTest

/// File modes checked at start-up, no password in clear anywhere, no private key in any output, and
/// signed data from another root rejected; all through the real binary.
final class SecurityTests: XCTestCase {
  private let buy = "account jake\nset dialogs off\nbuy \(ScenarioGenerator.prefix)coins100\nfinish last\n"

  private func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  private func keyFiles(_ dataDir: URL) throws -> [URL] {
    let ca = dataDir.appendingPathComponent("ca")
    return try FileManager.default.contentsOfDirectory(atPath: ca.path).filter { $0.hasSuffix(".key.pem") }
      .map { ca.appendingPathComponent($0) }
  }

  func testFreshDataDirectoryIsPrivate() throws {
    let dataDir = try Scratch.directory(self, "fresh").appendingPathComponent("data")
    let result = try StorefrontProcess.run(["run", "-", "--data-dir", dataDir.path], input: Data(buy.utf8))
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try mode(dataDir), 0o700)
    XCTAssertEqual(try mode(dataDir.appendingPathComponent("ledger.sqlite")), 0o600)
    XCTAssertEqual(try mode(dataDir.appendingPathComponent("ca")), 0o700)
    let keys = try keyFiles(dataDir)
    XCTAssertEqual(keys.count, 3, "root, intermediate and signing keys")
    for key in keys { XCTAssertEqual(try mode(key), 0o600, key.lastPathComponent) }
  }

  func testWorldReadableDataDirectoryIsFixedWithAWarning() throws {
    let dataDir = try Scratch.directory(self, "open")
    XCTAssertEqual(try StorefrontProcess.run(["run", "-", "--data-dir", dataDir.path], input: Data(buy.utf8)).status, 0)
    let ledger = dataDir.appendingPathComponent("ledger.sqlite")
    chmod(dataDir.path, 0o755)
    chmod(ledger.path, 0o644)
    chmod(dataDir.appendingPathComponent("ca").path, 0o755)
    for key in try keyFiles(dataDir) { chmod(key.path, 0o644) }

    let result = try StorefrontProcess.run(["run", "-", "--data-dir", dataDir.path], input: Data(buy.utf8))
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stderr.contains("Warning:"), result.stderr)
    XCTAssertTrue(result.stderr.contains("'\(dataDir.path)' was readable by other users (mode 0755); changed it to 0700"), result.stderr)
    XCTAssertTrue(result.stderr.contains(ledger.path), "the ledger file's fix is reported too: \(result.stderr)")
    XCTAssertEqual(try mode(dataDir), 0o700)
    XCTAssertEqual(try mode(ledger), 0o600)
    XCTAssertEqual(try mode(dataDir.appendingPathComponent("ca")), 0o700)
    // The CA tightens its key files silently (no warning); what matters is that they end up private.
    for key in try keyFiles(dataDir) { XCTAssertEqual(try mode(key), 0o600, key.lastPathComponent) }
  }

  func testPasswordIsNeverStoredOrPrintedInClear() throws {
    let dataDir = try Scratch.directory(self, "password")
    let password = "Sw0rdfish-\(UUID().uuidString)"
    let script = "account tester password=\(password)\nset dialogs off\nbuy \(ScenarioGenerator.prefix)shopping\nsignout\naccount tester password=\(password)\nrestore\n"
    let result = try StorefrontProcess.run(["run", "-", "--json", "--data-dir", dataDir.path], input: Data(script.utf8))
    XCTAssertEqual(result.status, 0, result.stderr)
    let listing = try StorefrontProcess.run(["transactions", "--all", "--json", "--data-dir", dataDir.path])
    let needle = Data(password.utf8)
    for (name, text) in [("run stdout", result.stdout), ("run stderr", result.stderr), ("transactions", listing.stdout)] {
      XCTAssertFalse(text.contains(password), "\(name) shows the password")
    }
    // Every file in the data directory, including the WAL before any checkpoint.
    let files = FileManager.default.enumerator(atPath: dataDir.path)?.compactMap { $0 as? String } ?? []
    var checked = 0
    for file in files {
      let url = dataDir.appendingPathComponent(file)
      guard let data = FileManager.default.contents(atPath: url.path) else { continue }
      XCTAssertNil(data.range(of: needle), "\(file) holds the password in clear")
      checked += 1
    }
    XCTAssertGreaterThanOrEqual(checked, 7)
    XCTAssertEqual(try Shell.sqlite(dataDir.appendingPathComponent("ledger.sqlite"), "SELECT count(*) FROM accounts WHERE json LIKE '%\(password)%';"), "0")
  }

  func testNoPrivateKeyInAnyOutput() throws {
    let dataDir = try Scratch.directory(self, "keys")
    let run = try StorefrontProcess.run(["run", "-", "--json", "--data-dir", dataDir.path], input: Data(buy.utf8))
    XCTAssertEqual(run.status, 0, run.stderr)
    let events = dataDir.appendingPathComponent("events.json")
    try run.stdoutData.write(to: events)
    let outputs: [(String, ProcessResult)] = [
      ("run --json", run),
      ("run (text)", try StorefrontProcess.run(["run", "-", "--data-dir", dataDir.path], input: Data(buy.utf8))),
      ("transactions --json", try StorefrontProcess.run(["transactions", "--all", "--json", "--data-dir", dataDir.path])),
      ("transactions", try StorefrontProcess.run(["transactions", "--all", "--data-dir", dataDir.path])),
      ("certificate", try StorefrontProcess.run(["certificate", "--data-dir", dataDir.path])),
      ("verify", try StorefrontProcess.run(["verify", events.path, "--data-dir", dataDir.path])),
      ("--help", try StorefrontProcess.run(["--help"])),
    ]
    // The base64 body lines of each private key, long enough not to match by chance.
    let keyLines = try keyFiles(dataDir).flatMap { url -> [String] in
      let pem = try String(contentsOf: url, encoding: .utf8)
      return pem.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") && $0.count >= 16 }
    }
    XCTAssertGreaterThanOrEqual(keyLines.count, 3)
    for (name, result) in outputs {
      XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
      let text = result.stdout + result.stderr
      XCTAssertFalse(text.contains("PRIVATE KEY"), "\(name) prints a private key")
      for line in keyLines { XCTAssertFalse(text.contains(line), "\(name) prints private key material") }
    }
    XCTAssertTrue(outputs[4].1.stdout.contains("BEGIN CERTIFICATE"), "certificate prints the root certificate")
  }

  func testSignaturesFromAnotherSandboxAreRejected() throws {
    let mine = try Scratch.directory(self, "mine")
    let theirs = try Scratch.directory(self, "theirs")
    let run = try StorefrontProcess.run(["run", "-", "--json", "--data-dir", theirs.path], input: Data(buy.utf8))
    XCTAssertEqual(run.status, 0, run.stderr)
    let events = mine.appendingPathComponent("events.json")
    try run.stdoutData.write(to: events)
    XCTAssertEqual(try StorefrontProcess.run(["certificate", "--data-dir", mine.path]).status, 0)
    let result = try StorefrontProcess.run(["verify", events.path, "--data-dir", mine.path])
    XCTAssertEqual(result.status, 1, result.stderr)
    XCTAssertTrue(result.stderr.contains("\(events.path):"), result.stderr)
    XCTAssertEqual(try StorefrontProcess.run(["verify", events.path, "--data-dir", theirs.path]).status, 0)
  }
}
