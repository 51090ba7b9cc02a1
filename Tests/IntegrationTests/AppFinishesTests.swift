import AppReceipt
import Foundation
import SandboxSigning
import StorefrontProcessTestSupport
import XCTest

/// The simulated app's finishing modes through the real binary: a test backend (a real HTTP server on
/// 127.0.0.1:0 that checks the `signedTransaction` against the data directory's root, as seed 002's
/// server checks the receipt, and here the receipt too) decides, and the transaction is finished only when it said yes.
final class AppFinishesTests: XCTestCase {
  static let coins = "com.jake.sample.ExInAppPurchase.coins100"
  static let removeAds = "com.jake.sample.ExInAppPurchase.shopping"

  /// A backend over a ``WebhookReceiver``: each request's JWS and app receipt are verified before it
  /// is answered, and the receipt must list the transaction (checked locally, or, with
  /// `verifyReceiptPort`, by calling `storefront serve`'s `verifyReceipt` as seed 002's server calls
  /// Apple's); a request that fails gets 400 whatever `answers` says. `answers[i]` answers request i.
  final class Backend: @unchecked Sendable {
    let receiver: WebhookReceiver
    private let verdicts = Shared([String]())

    init(data: String, answers: [WebhookReceiver.Behavior], verifyReceiptPort: UInt16? = nil) throws {
      receiver = try WebhookReceiver()
      let authority = try SandboxCertificateAuthority.open(
        in: URL(fileURLWithPath: data).appendingPathComponent("ca"), validFrom: Date())
      let verifier = JWSVerifier(trustedRoots: [authority.root], bundleID: nil, now: { Date() })
      let receipts = AppReceiptDecoder(trustedRoots: [authority.root])
      let receiver = self.receiver
      receiver.setBeforeAnswer { [verdicts] index in
        let body = receiver.requests[index].body
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        var verdict = "no signedTransaction"
        if let jws = object["signedTransaction"] as? String {
          do throws(JWSVerificationFailure) {
            _ = try verifier.verify(jws)
            verdict = "verified"
          } catch {
            verdict = error.name
          }
        }
        if verdict == "verified" {
          verdict =
            if let verifyReceiptPort { Self.verifyReceiptVerdict(object, port: verifyReceiptPort) } else { Self.receiptVerdict(object, decoder: receipts) }
        }
        verdicts.withLock { $0.append(verdict) }
        receiver.setBehavior(verdict == "verified" ? answers[min(index, answers.count - 1)] : .status(400))
      }
    }

    /// Seed 002's server check: the receipt's signature verifies and it lists the transaction.
    private static func receiptVerdict(_ body: [String: Any], decoder: AppReceiptDecoder) -> String {
      guard let text = body["receipt"] as? String else { return "no receipt" }
      guard let receipt = try? decoder.decode(base64: text, at: Date()) else { return "receipt does not verify" }
      let id = body["transactionId"] as? String
      return receipt.inAppPurchases.contains { $0.transactionID == id } ? "verified" : "transaction not in the receipt"
    }

    /// The same check by `POST /verifyReceipt`: status 0 and the transaction in the receipt's `in_app`.
    private static func verifyReceiptVerdict(_ body: [String: Any], port: UInt16) -> String {
      guard let text = body["receipt"] as? String else { return "no receipt" }
      guard let request = try? VerifyReceiptServeTests.body(text), let answer = try? VerifyReceiptServeTests.call(port, body: request) else {
        return "verifyReceipt did not answer"
      }
      guard answer.json["status"] as? Int == 0 else { return "verifyReceipt status \(answer.json["status"] ?? "none")" }
      let inApp = ((answer.json["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]]) ?? []
      let id = body["transactionId"] as? String
      return inApp.contains { $0["transaction_id"] as? String == id } ? "verified" : "transaction not in verifyReceipt's receipt"
    }

    var url: String { receiver.url }
    /// Per request, in order: "verified" or why not.
    var checked: [String] { verdicts.withLock { $0 } }
    var bodies: [[String: Any]] {
      receiver.requests.map { (try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any] ?? [:] }
    }
  }

  /// A first run makes the data directory and its CA, which the backend then trusts.
  private func prepared(_ directory: TemporaryDirectory) throws -> String {
    let data = directory.path("data")
    let script = try directory.write("0-setup.scenario", "account jake\nset dialogs off\n")
    let setup = try StorefrontBinary.run(["run", script, "--data-dir", data], in: directory)
    XCTAssertEqual(setup.status, 0, setup.summary)
    return data
  }

  private func run(_ script: String, name: String, mode: [String], data: String, in directory: TemporaryDirectory) throws -> [EventLine] {
    // Purchase dialogs are a per-process control: each run turns them off first.
    let path = try directory.write(name, "set dialogs off\n" + script)
    let result = try StorefrontBinary.run(["run", path, "--json", "--data-dir", data, "--app-finishes"] + mode, in: directory)
    XCTAssertEqual(result.status, 0, result.summary)
    return EventLine.parse(result.stdout, source: name)
  }

  private func unfinished(_ data: String, in directory: TemporaryDirectory) throws -> [String] {
    let listed = try StorefrontBinary.run(["transactions", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(listed.status, 0, listed.summary)
    return EventLine.parse(listed.stdout, source: "transactions").filter { $0.object["finished"] as? Bool == false }.compactMap(\.transactionID)
  }

  func testFinishedOnlyWhenTheBackendSaidYesAndA500IsAskedAgainAtTheNextLaunch() throws {
    let directory = try TemporaryDirectory(self)
    let data = try prepared(directory)
    // The backend asks `storefront serve`'s verifyReceipt about the receipt the app sends.
    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data], in: directory)
    defer {
      kill(serve.processIdentifier, SIGTERM)
      _ = try? serve.wait(timeout: 30)
    }
    let address = try ReadyFile.address(fromFIFO: fifo)
    let port = try XCTUnwrap(address.split(separator: ":").last.flatMap { UInt16($0) }, address)
    let backend = try Backend(data: data, answers: [.status(500), .status(200)], verifyReceiptPort: port)
    defer { backend.receiver.stop() }

    let first = try run("buy \(Self.coins)\nexpect unfinished 1\n", name: "1-buy.scenario", mode: ["after-server", backend.url], data: data, in: directory)
    let call = try XCTUnwrap(first.first { $0.event == "appServerCall" }, "the app asked its server")
    let id = try XCTUnwrap(first.first { $0.state == "purchased" }?.transactionID)
    XCTAssertEqual(call.object["status"] as? Int, 500)
    XCTAssertEqual(call.object["finishes"] as? Bool, false)
    XCTAssertNotNil(call.object["latencyMs"] as? Int)
    XCTAssertFalse(first.contains { $0.event == "transactionRemoved" }, "a 500 must not finish")
    XCTAssertEqual(try unfinished(data, in: directory), [id], "left unfinished in the ledger")

    // The next launch delivers it again; the app asks again; this time the backend says yes.
    let second = try run("expect unfinished 0\n", name: "2-launch.scenario", mode: ["after-server", backend.url], data: data, in: directory)
    let again = try XCTUnwrap(second.first { $0.event == "appServerCall" })
    XCTAssertEqual(again.object["status"] as? Int, 200)
    XCTAssertEqual(again.object["finishes"] as? Bool, true)
    XCTAssertNil(again.scenarioLine, "asked at launch, before any line ran")
    XCTAssertEqual(second.filter { $0.event == "transactionRemoved" }.map(\.transactionID), [id])
    XCTAssertEqual(try unfinished(data, in: directory), [])

    XCTAssertEqual(backend.checked, ["verified", "verified"], "the backend verified the JWS, and verifyReceipt the receipt the app sent")
    for body in backend.bodies {
      XCTAssertEqual(body["transactionId"] as? String, id)
      XCTAssertEqual(body["originalTransactionId"] as? String, id)
      XCTAssertEqual(body["productId"] as? String, Self.coins)
      XCTAssertNotNil(body["receipt"] as? String, "the app sends its receipt, which the backend checked")
    }
    XCTAssertEqual(backend.receiver.requests.first?.method, "POST")
    XCTAssertEqual(backend.receiver.requests.first?.headers["content-type"], "application/json")
  }

  func testRelaunchInTheScenarioRedeliversAndABackendThatRefusesALieNeverFinishes() throws {
    let directory = try TemporaryDirectory(self)
    let data = try prepared(directory)
    // 503, then 204 after the relaunch; a JWS of another data directory does not verify here and gets 400.
    let backend = try Backend(data: data, answers: [.status(503), .status(204)])
    defer { backend.receiver.stop() }
    let events = try run(
      "buy \(Self.coins)\nexpect unfinished 1\nrelaunch\nexpect unfinished 0\n", name: "1-relaunch.scenario",
      mode: ["after-server", backend.url], data: data, in: directory)
    XCTAssertEqual(events.filter { $0.event == "appServerCall" }.compactMap { $0.object["status"] as? Int }, [503, 204])

    let other = directory.path("other")
    let stranger = try run(
      "account eve\nset dialogs off\nbuy \(Self.coins)\nexpect unfinished 1\n", name: "2-other.scenario",
      mode: ["after-server", backend.url], data: other, in: directory)
    XCTAssertEqual(stranger.first { $0.event == "appServerCall" }?.object["status"] as? Int, 400)
    XCTAssertNotEqual(backend.checked.last, "verified", "another data directory's JWS must not verify against this root")
  }

  func testNothingIsLostWhenKilledBeforeTheBackendAnswers() throws {
    let directory = try TemporaryDirectory(self)
    let data = try prepared(directory)
    let backend = try Backend(data: data, answers: [.hang, .status(200)])
    defer { backend.receiver.stop() }
    let victim = Shared(Int32(0))
    let receiver = backend.receiver
    // The kill lands after the request arrived and before any answer: the app is waiting for its server.
    receiver.setBeforeAnswer { index in
      guard index == 0 else { return }
      let pid = victim.withLock { $0 }
      if pid > 0 { kill(pid, SIGKILL) }
      receiver.setBehavior(.closeEarly)
    }
    let script = try directory.write("1-buy.scenario", "set dialogs off\nbuy \(Self.coins)\nexpect unfinished 0\n")
    let process = try StorefrontBinary.start(
      ["run", script, "--json", "--data-dir", data, "--app-finishes", "after-server", backend.url], in: directory)
    victim.withLock { $0 = process.processIdentifier }
    XCTAssertTrue(receiver.waitForRequests(1), "the app never called its server")
    let killed = try process.wait(timeout: 60)
    XCTAssertTrue(killed.signalled, killed.summary)
    let bought = try XCTUnwrap(EventLine.parse(killed.stdout, source: "killed").first { $0.state == "purchased" }?.transactionID)
    XCTAssertEqual(try unfinished(data, in: directory), [bought], "the purchase is in the ledger, unfinished")

    receiver.setBeforeAnswer(nil)
    receiver.setBehavior(.status(200))
    let next = try run("expect unfinished 0\n", name: "2-launch.scenario", mode: ["after-server", backend.url], data: data, in: directory)
    XCTAssertEqual(next.first { $0.event == "appServerCall" }?.object["status"] as? Int, 200)
    XCTAssertEqual(next.filter { $0.event == "transactionRemoved" }.map(\.transactionID), [bought])
    XCTAssertEqual(receiver.requests.count, 2)
    let ids = receiver.requests.map { ((try? JSONSerialization.jsonObject(with: $0.body)) as? [String: Any])?["transactionId"] as? String }
    XCTAssertEqual(ids, [bought, bought], "the next launch posted the same purchase again")
  }

  func testAtOnceFinishesRightAfterPurchasedAndRestored() throws {
    let directory = try TemporaryDirectory(self)
    let data = try prepared(directory)
    let events = try run(
      "buy \(Self.removeAds)\nexpect unfinished 0\nrestore\nexpect unfinished 0\nexpect restored 1\n", name: "1-at-once.scenario",
      mode: ["at-once"], data: data, in: directory)
    let transactions = events.filter(\.isTransaction).map { "\($0.event ?? "") \($0.state ?? "")" }
    XCTAssertEqual(
      transactions,
      [
        "transactionUpdated purchasing", "transactionUpdated purchased", "transactionRemoved purchased",
        "transactionUpdated restored", "transactionRemoved restored",
      ])
    XCTAssertFalse(events.contains { $0.event == "appServerCall" })
  }

  func testABadModeIsAUsageError() throws {
    let directory = try TemporaryDirectory(self)
    let script = try directory.write("s.scenario", "expect unfinished 0\n")
    for mode in [["soon"], ["after-server", "ftp://x/y"]] {
      let result = try StorefrontBinary.run(["run", script, "--app-finishes"] + mode, in: directory)
      XCTAssertEqual(result.status, 64, result.summary)
      XCTAssertTrue(result.stderr.contains("--app-finishes"), result.stderr)
    }
    let refused = try StorefrontBinary.run(["run", script, "--app-finishes", "after-server"], in: directory)
    XCTAssertEqual(refused.status, 64, refused.summary)
  }
}

/// A value shared with the receiver's thread.
private final class Shared<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
