import Foundation
import SandboxSigning
import StorefrontProcessTestSupport
import XCTest

/// schemathesis (PyPI, pinned in `Tests/python/schemathesis-requirements.txt`, in a venv of its own)
/// against the real `storefront serve` with `Docs/openapi.json`: over a data directory where a
/// `storefront run` made purchases (so the description's example ids answer 200), no request gets
/// a 5xx, and every response's status and body are the ones the description gives.
final class ServeSchemathesisTests: XCTestCase {
  private struct CreatedKey: Decodable {
    var keyId: String
    var issuerId: String
    var privateKeyFile: String
  }

  static let requirements = StorefrontProcess.packageRoot.appendingPathComponent("Tests/python/schemathesis-requirements.txt")
  static let venv = StorefrontProcess.packageRoot.appendingPathComponent(".build/schemathesis-venv")
  static let document = StorefrontProcess.packageRoot.appendingPathComponent("Docs/openapi.json")
  /// Examples per operation and phase, and the seed: a bounded, repeatable run (about 30 s here).
  static let maxExamples = 25
  static let seed = 13

  func testSchemathesisFindsNoServerErrorAndNoResponseOutsideTheDescription() throws {
    let environment: PythonEnvironment
    do {
      environment = try PythonEnvironment.prepare(requirements: Self.requirements, in: Self.venv)
    } catch let unavailable as PythonEnvironment.Unavailable where unavailable.reason == .packagesNotInstalled {
      throw XCTSkip(unavailable.description)
    }
    let scratch = try Scratch.directory(self, "schemathesis")
    let data = scratch.appendingPathComponent("data")
    let created = try StorefrontProcess.run(["keys", "create", "--json", "--data-dir", data.path])
    XCTAssertEqual(created.status, 0, created.stderr)
    let key = try JSONDecoder().decode(CreatedKey.self, from: created.stdoutData)
    let privateKey = try PrivateKey(pem: Data(contentsOf: URL(fileURLWithPath: key.privateKeyFile)))
    // Apple's longest-lived token (60 minutes less a margin): the run never outlives it.
    let now = Date().timeIntervalSince1970.rounded(.down)
    let token = try TestToken(keyID: key.keyId, issuerID: key.issuerId, expires: now + 3_540, issued: now).signed(by: privateKey.signES256)

    // 2000000000000001 (refunded), …02 (a subscription), …03 (a consumable): the description's examples.
    let scenario = scratch.appendingPathComponent("buy.scenario")
    try Data("""
      account backend
      set dialogs off
      buy com.jake.sample.ExInAppPurchase.shopping
      buy com.jake.sample.ExInAppPurchase.premium.monthly
      buy com.jake.sample.ExInAppPurchase.coins100
      refund com.jake.sample.ExInAppPurchase.shopping

      """.utf8).write(to: scenario)
    let run = try StorefrontProcess.run(["run", scenario.path, "--data-dir", data.path])
    XCTAssertEqual(run.status, 0, run.stderr)

    let fifo = scratch.appendingPathComponent("ready").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontProcess.binary.get().start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--json", "--data-dir", data.path])
    let address = try Self.address(fromFIFO: fifo)

    let checks = "not_a_server_error,status_code_conformance,response_schema_conformance"
    let schemathesis = try ChildProcess.run(
      environment.python.path,
      [
        environment.script("schemathesis").path, "run", Self.document.path, "--url", "http://\(address)", "--header", "Authorization: Bearer \(token)",
        "--checks", checks, "--max-examples", String(Self.maxExamples), "--seed", String(Self.seed), "--workers", "1",
        "--generation-database", "none", "--request-timeout", "30", "--no-color",
      ],
      environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "COLUMNS": "200"]) { $1 },
      workingDirectory: scratch, timeout: 300)
    XCTAssertFalse(schemathesis.timedOut, "schemathesis ran past 300 s")
    XCTAssertEqual(schemathesis.status, 0, "schemathesis found problems:\n\(schemathesis.stdout.suffix(20_000))\n\(schemathesis.stderr.suffix(4_000))")
    // It ran: test cases were generated and all passed.
    let summary = schemathesis.stdout.split(separator: "\n").first { $0.contains(" generated, ") } ?? ""
    let counts = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    XCTAssertEqual(counts.count, 2, "no summary line in:\n\(schemathesis.stdout.suffix(4_000))")
    XCTAssertGreaterThan(counts.first ?? 0, 500, String(summary))
    XCTAssertEqual(counts.first, counts.last, String(summary))

    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    let served = try serve.wait(timeout: 30)
    XCTAssertEqual(served.status, 0, served.stderr)
    // The examples reached the ledger's purchases, not only errors.
    let statuses = served.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["status"] as? Int
    }
    XCTAssertGreaterThan(statuses.filter { $0 == 200 }.count, 20, "few 200s: \(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
    XCTAssertFalse(statuses.contains { $0 >= 500 }, "serve answered a 5xx")
  }

  /// The address serve writes to `fifo` once it listens (at most 60 s).
  private static func address(fromFIFO fifo: String) throws -> String {
    let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(descriptor) }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard descriptor >= 0, poll(&poller, 1, 60_000) == 1 else { throw Failure("serve did not write its ready file") }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(descriptor, &buffer, buffer.count)
    return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
