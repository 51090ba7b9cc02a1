import Foundation
import StoreTUI
import XCTest

@testable import StorefrontCLI

/// `storefront run` with the notification verbs on a real data directory, and the Settings pane's
/// server fault over the real fault plan file.
final class NotificationRunTests: XCTestCase {
  static let coins = "com.jake.sample.ExInAppPurchase.coins100"

  private func script(_ text: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent("n.scenario")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  func testNotificationsAreQueuedAndExpectDeliveredWaitsForAServer() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let data = directory.appendingPathComponent("data").path
    let queued = try script("""
      account backend
      set dialogs off
      notifications url http://127.0.0.1:9/hook
      buy \(Self.coins)
      expect notification ONE_TIME_CHARGE
      expect notifications 1

      """, in: directory)
    let run = CLIRun(["run", queued, "--json", "--data-dir", data])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertTrue(run.output.contains("\"ONE_TIME_CHARGE\""), run.output)

    // No `storefront serve` runs on this directory, so nothing delivers it.
    let waiting = try script("account backend\nset dialogs off\nbuy \(Self.coins)\nexpect delivered ONE_TIME_CHARGE within=100ms\n", in: directory)
    let wait = CLIRun(["run", waiting, "--data-dir", data])
    XCTAssertEqual(wait.code, 1)
    XCTAssertTrue(
      wait.errorOutput.contains("n.scenario:4: expectation failed: expected ONE_TIME_CHARGE to be delivered within 0.1 seconds, but #2 ONE_TIME_CHARGE (not attempted) is still pending"),
      wait.errorOutput)
  }

  func testTheSettingsFaultIsTheFaultPlansFaultOfEveryEndpoint() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let access = ServerFaultSettings.access(directory: directory)
    XCTAssertEqual(access.read(), ServerFaultSetting())
    XCTAssertNil(access.write(ServerFaultSetting(answer: .retryable, delayMilliseconds: 250)))
    XCTAssertEqual(access.read(), ServerFaultSetting(answer: .retryable, delayMilliseconds: 250))
    let file = directory.appendingPathComponent("server-faults.json")
    let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    let every = try XCTUnwrap(plan["everyEndpoint"] as? [String: Any])
    XCTAssertEqual(every["answer"] as? String, "generalInternalRetryable")
    XCTAssertEqual(every["delayMilliseconds"] as? Int, 250)
    XCTAssertNil(access.write(ServerFaultSetting(answer: .rateLimit)))
    XCTAssertEqual(access.read(), ServerFaultSetting(answer: .rateLimit))
    XCTAssertNil(access.write(ServerFaultSetting()))
    XCTAssertEqual(access.read(), ServerFaultSetting())
  }
}
