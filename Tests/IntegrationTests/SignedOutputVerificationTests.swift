import Foundation
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

/// `storefront verify` on what `storefront run --json` printed, as a backend would check it.
final class SignedOutputVerificationTests: XCTestCase {
  /// A data directory that ran `example` with --json; the output is saved as `events.jsonl`.
  private struct SignedRun {
    var directory: TemporaryDirectory
    var data: String
    var eventsFile: String
    var events: [EventLine]

    /// Every (output line, field, JWS) of the run, in order.
    var signed: [(line: Int, field: String, jws: String)] {
      events.flatMap { event in
        EventLine.signedFields.compactMap { field in (event.object[field] as? String).map { (event.number, field, $0) } }
      }
    }
  }

  private func signedRun(_ example: String) throws -> SignedRun {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let script = try ExampleScenarios.named(example).path
    let result = try StorefrontBinary.run(["run", script, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(result.status, 0, result.summary)
    let file = try directory.write("events.jsonl", result.stdout)
    return SignedRun(directory: directory, data: data, eventsFile: file, events: EventLine.parse(result.stdout, source: example))
  }

  func testRunOutputVerifiesWithTheDataDirectorysRoot() throws {
    let run = try signedRun("07")
    let signed = run.signed
    XCTAssertGreaterThan(signed.count, 10)
    XCTAssertTrue(signed.contains { $0.field == "signedRenewalInfo" }, "07 should carry renewal info")
    let result = try StorefrontBinary.run(["verify", "--data-dir", run.data, run.eventsFile], in: run.directory)
    XCTAssertEqual(result.status, 0, result.summary)
    XCTAssertEqual(result.stderr, "\(run.eventsFile): \(signed.count) signatures verified.\n")
    let payloads = EventLine.parse(result.stdout, source: "verify")
    XCTAssertEqual(payloads.count, signed.count, "one decoded payload per signed field")
    for (payload, source) in zip(payloads, signed) {
      let expected = try XCTUnwrap(EventLine.jsonSegment(source.jws.split(separator: ".")[1]))
      XCTAssertEqual(payload.object["originalTransactionId"] as? String, expected["originalTransactionId"] as? String)
      XCTAssertEqual(payload.object["productId"] as? String, expected["productId"] as? String)
      XCTAssertEqual(payload.object["environment"] as? String, "Sandbox")
    }
  }

  func testExplicitRootInDERAndPEMAndStandardInput() throws {
    let run = try signedRun("01")
    let der = run.directory.path("root.der")
    let pem = run.directory.path("root.pem")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--data-dir", run.data, "--der", "--out", der], in: run.directory).status, 0)
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--data-dir", run.data, "--out", pem], in: run.directory).status, 0)
    // With --root the data directory is not needed: verify from an empty one.
    let elsewhere = run.directory.path("empty")
    for root in [der, pem] {
      let result = try StorefrontBinary.run(["verify", "--root", root, "--data-dir", elsewhere, run.eventsFile], in: run.directory)
      XCTAssertEqual(result.status, 0, result.summary)
    }
    // Bare JWS lines on standard input.
    let bare = run.signed.map(\.jws).joined(separator: "\n") + "\n"
    let piped = try StorefrontBinary.run(["verify", "--root", der, "-"], stdin: Data(bare.utf8), in: run.directory)
    XCTAssertEqual(piped.status, 0, piped.summary)
    XCTAssertEqual(piped.stderr, "<stdin>: \(run.signed.count) signatures verified.\n")
  }

  func testOneTamperedByteIsRejectedNamingItsLine() throws {
    let run = try signedRun("07")
    let signed = run.signed
    let transactions = signed.filter { $0.field == "signedTransaction" }
    let target = transactions[transactions.count / 2]
    var parts = target.jws.split(separator: ".").map(String.init)
    var payload = try XCTUnwrap(Data(base64URLEncoded: Substring(parts[1])))
    // Change one byte of the payload: a digit of the quoted transactionId stays valid JSON.
    let text = String(decoding: payload, as: UTF8.self)
    let marker = try XCTUnwrap(text.range(of: "\"transactionId\":\""))
    let offset = text.utf8.distance(from: text.startIndex, to: marker.upperBound)
    payload[offset] = payload[offset] == UInt8(ascii: "2") ? UInt8(ascii: "3") : UInt8(ascii: "2")
    parts[1] = payload.base64URLEncoded
    let tampered = parts.joined(separator: ".")
    var lines = run.events.map(\.text)
    lines[target.line - 1] = lines[target.line - 1].replacingOccurrences(of: target.jws, with: tampered)
    let file = try run.directory.write("tampered.jsonl", lines.joined(separator: "\n") + "\n")

    let result = try StorefrontBinary.run(["verify", "--data-dir", run.data, file], in: run.directory)
    XCTAssertEqual(result.status, 1, result.summary)
    XCTAssertTrue(result.stderr.hasPrefix("\(file):\(target.line): rejected (tampered)"), result.stderr)
    // Every other line verified and was printed: the tampered one does not stop the check.
    XCTAssertEqual(EventLine.parse(result.stdout, source: "verify").count, signed.count - 1)
    XCTAssertTrue(result.stderr.hasSuffix("\(file): \(signed.count - 1) signatures verified, 1 rejected.\n"), result.stderr)
  }

  func testAnotherDataDirectorysRootIsRejected() throws {
    let run = try signedRun("01")
    let other = run.directory.path("other")
    let der = run.directory.path("other-root.der")
    let exported = try StorefrontBinary.run(["certificate", "--data-dir", other, "--der", "--out", der], in: run.directory)
    XCTAssertEqual(exported.status, 0, exported.summary)
    let result = try StorefrontBinary.run(["verify", "--root", der, run.eventsFile], in: run.directory)
    XCTAssertEqual(result.status, 1, result.summary)
    let first = try XCTUnwrap(run.signed.first)
    XCTAssertTrue(result.stderr.hasPrefix("\(run.eventsFile):\(first.line): rejected (unknownRoot)"), result.stderr)
    XCTAssertEqual(result.stdout, "")
    // The default root of the other data directory is just as wrong.
    let byDirectory = try StorefrontBinary.run(["verify", "--data-dir", other, run.eventsFile], in: run.directory)
    XCTAssertEqual(byDirectory.status, 1, byDirectory.summary)
    XCTAssertTrue(byDirectory.stderr.contains(":\(first.line): rejected (unknownRoot)"), byDirectory.stderr)
  }

  func testWrongBundleIDIsRejected() throws {
    let run = try signedRun("01")
    let result = try StorefrontBinary.run(["verify", "--bundle-id", "com.other.app", "--data-dir", run.data, run.eventsFile], in: run.directory)
    XCTAssertEqual(result.status, 1, result.summary)
    let first = try XCTUnwrap(run.signed.first)
    XCTAssertTrue(result.stderr.hasPrefix("\(run.eventsFile):\(first.line): rejected (wrongBundleID)"), result.stderr)
    XCTAssertTrue(result.stderr.contains("com.other.app"), result.stderr)
  }

  func testBundleIDGivenToRunIsTheOneThatVerifies() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let script = try ExampleScenarios.named("02").path
    let result = try StorefrontBinary.run(["run", script, "--json", "--bundle-id", "org.example.game", "--data-dir", data], in: directory)
    XCTAssertEqual(result.status, 0, result.summary)
    let file = try directory.write("events.jsonl", result.stdout)
    XCTAssertEqual(try StorefrontBinary.run(["verify", "--bundle-id", "org.example.game", "--data-dir", data, file], in: directory).status, 0)
    XCTAssertEqual(try StorefrontBinary.run(["verify", "--data-dir", data, file], in: directory).status, 1)
  }

  func testVerifyingAFileWithoutSignedDataExits65() throws {
    let directory = try TemporaryDirectory(self)
    let script = try ExampleScenarios.named("03").path
    let data = directory.path("data")
    let result = try StorefrontBinary.run(["run", script, "--json", "--data-dir", data], in: directory)
    // Keep only the lines that carry no JWS.
    let unsigned = result.lines.filter { !$0.contains("\"signedTransaction\"") }.joined(separator: "\n") + "\n"
    let file = try directory.write("unsigned.jsonl", unsigned)
    let verified = try StorefrontBinary.run(["verify", "--data-dir", data, file], in: directory)
    XCTAssertEqual(verified.status, 65, verified.summary)
    XCTAssertTrue(verified.stderr.contains("no signed data found"), verified.stderr)
  }
}
