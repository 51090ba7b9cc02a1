import Foundation
import StorefrontProcessTestSupport
import StorefrontTestSupport
import XCTest

/// The notification endpoints of the real `storefront serve`, called by Apple's Python client on a
/// data directory whose notification URL a scenario set (`notifications url`).
final class ServeNotificationsAppleClientTests: XCTestCase {
  private static let coins = "com.jake.sample.ExInAppPurchase.coins100"
  /// `LiveStore.scenarioEpoch`: where a run's virtual clock starts.
  private static let epoch: Int64 = 1_767_225_600_000



  func testTestNotificationStatusAndHistoryThroughApplesClient() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let created = try StorefrontBinary.run(["keys", "create", "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(created.status, 0, created.stderr)
    let key = try XCTUnwrap(JSONSerialization.jsonObject(with: created.stdoutData) as? [String: Any])
    let scenario = directory.path("notify.scenario")
    // Port 9 (discard) on loopback refuses: a deliverer, if one runs, records a failed attempt.
    try Data("""
      account backend
      set dialogs off
      notifications url http://127.0.0.1:9/hook
      buy \(Self.coins)
      expect notification ONE_TIME_CHARGE
      expect notifications 1

      """.utf8).write(to: URL(fileURLWithPath: scenario))
    let run = try StorefrontBinary.run(["run", scenario, "--json", "--data-dir", data], in: directory)
    XCTAssertEqual(run.status, 0, run.summary)
    XCTAssertTrue(run.stdout.contains("\"notificationType\":\"ONE_TIME_CHARGE\""), run.stdout)

    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data], in: directory)
    let address = try ReadyFile.address(fromFIFO: fifo)
    let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/call_server_api.py").path
    func calls(_ list: [(String, String, String, [String: Any])]) throws -> [String: [String: Any]] {
      let input = try JSONSerialization.data(withJSONObject: [
        "base_url": "http://\(address)", "bundle_id": key["bundleId"] ?? "",
        "calls": list.map { name, endpoint, argument, body in
          [
            "name": name, "key_file": key["privateKeyFile"] ?? "", "key_id": key["keyId"] ?? "", "issuer_id": key["issuerId"] ?? "",
            "endpoint": endpoint, "argument": argument, "body": body,
          ] as [String: Any]
        },
      ])
      let client = try ChildProcess.run(apple.python.path, [script], stdin: input, timeout: 120)
      XCTAssertEqual(client.status, 0, client.stderr)
      let outcomes = try XCTUnwrap(JSONSerialization.jsonObject(with: client.stdoutData) as? [[String: Any]])
      return Dictionary(uniqueKeysWithValues: outcomes.map { ($0["name"] as? String ?? "?", $0) })
    }

    let window: [String: Any] = ["startDate": Self.epoch - 86_400_000, "endDate": Self.epoch + 86_400_000]
    let first = try calls([
      ("test", "request_test_notification", "", [:]),
      ("history", "get_notification_history", "", window),
      ("two filters", "get_notification_history", "", window.merging(["notificationType": "TEST", "transactionId": "1"]) { $1 }),
      ("too early", "get_notification_history", "", ["startDate": Self.epoch - 40 * 86_400_000, "endDate": Self.epoch]),
    ])
    XCTAssertEqual(first["test"]?["ok"] as? Bool, true, "\(first["test"] ?? [:])")
    let token = try XCTUnwrap((first["test"]?["fields"] as? [String: Any])?["testNotificationToken"] as? String)
    XCTAssertNotNil(UUID(uuidString: token), token)
    XCTAssertEqual(first["history"]?["ok"] as? Bool, true, "\(first["history"] ?? [:])")
    XCTAssertEqual((first["history"]?["fields"] as? [String: Any])?["hasMore"] as? Bool, false)
    // Only what was sent is history; each item is one of the two queued, with its attempts.
    for item in first["history"]?["history"] as? [[String: Any]] ?? [] {
      XCTAssertTrue(["ONE_TIME_CHARGE", "TEST"].contains(TestStore.payload(of: item["signedPayload"] as? String)["notificationType"] as? String ?? ""))
      XCTAssertFalse((item["attempts"] as? [Any] ?? []).isEmpty)
    }
    XCTAssertEqual(first["two filters"]?["raw_api_error"] as? Int, 4_000_019)
    XCTAssertEqual(first["too early"]?["raw_api_error"] as? Int, 4_000_012, "the window is on the virtual clock")

    let second = try calls([("status", "get_test_notification_status", token, [:])])
    let status = try XCTUnwrap(second["status"])
    if status["ok"] as? Bool == true {
      // A deliverer attempted it: the payload is the TEST with an attempt that did not succeed.
      XCTAssertEqual(TestStore.payload(of: (status["fields"] as? [String: Any])?["signedPayload"] as? String)["notificationType"] as? String, "TEST")
      XCTAssertNotEqual((status["attempts"] as? [[String: Any]])?.first?["sendAttemptResult"] as? String, "SUCCESS")
    } else {
      XCTAssertEqual(status["raw_api_error"] as? Int, 4_040_008, "not attempted yet: \(status)")
    }

    // Without the URL the request is Apple's 4040007.
    try Data("notifications url off\n".utf8).write(to: URL(fileURLWithPath: scenario))
    XCTAssertEqual(try StorefrontBinary.run(["run", scenario, "--data-dir", data], in: directory).status, 0)
    let third = try calls([("test", "request_test_notification", "", [:])])
    XCTAssertEqual(third["test"]?["raw_api_error"] as? Int, 4_040_007, "\(third["test"] ?? [:])")
    XCTAssertEqual(third["test"]?["http_status"] as? Int, 404)

    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    XCTAssertEqual(try serve.wait(timeout: 30).status, 0)
  }
}
