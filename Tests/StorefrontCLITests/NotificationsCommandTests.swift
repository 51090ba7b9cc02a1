import Foundation
import XCTest

@testable import StorefrontCLI

/// serve's notification options and the `notifications` commands, in-process.
final class NotificationsCommandTests: XCTestCase {
  func testDurationsAndServeOptionsAreValidated() {
    XCTAssertEqual(ServeDelivery.duration("500ms"), .milliseconds(500))
    XCTAssertEqual(ServeDelivery.duration("5s"), .seconds(5))
    XCTAssertEqual(ServeDelivery.duration("2"), .seconds(2))
    for bad in ["0", "-1s", "fast", "2h", "3601s", ""] { XCTAssertNil(ServeDelivery.duration(bad), bad) }
    let cases: [([String], String)] = [
      (["--notify", "ftp://example.com"], "Invalid value for '--notify <url>': the notification URL must be http or https, not 'ftp'."),
      (["--app-apple-id", "x"], "The value 'x' is invalid for '--app-apple-id <n>': use a positive number."),
      (["--notify-timeout", "soon"], "The value 'soon' is invalid for '--notify-timeout <duration>'"),
    ]
    for (arguments, message) in cases {
      let run = CLIRun(["serve"] + arguments + ["--data-dir", "/nonexistent/sf-notify"])
      XCTAssertEqual(run.code, 64, "\(arguments): \(run.errorOutput)")
      XCTAssertTrue(run.errorOutput.contains(message), run.errorOutput)
    }
  }

  func testTheURLIsSetShownAndClearedAndTheOutboxListed() throws {
    let data = try CLIFiles.temporaryDirectory(self).path
    XCTAssertEqual(CLIRun(["notifications", "url", "--data-dir", data]).output, "Sandbox: none\nProduction: none\n")
    let set = CLIRun(["notifications", "url", "https://hooks:secret@example.test/n", "--environment", "Production", "--data-dir", data])
    XCTAssertEqual(set.code, 0, set.errorOutput)
    XCTAssertEqual(set.output, "Production notification URL: https://***@example.test/n\n")
    XCTAssertEqual(
      CLIRun(["notifications", "url", "--environment", "Production", "--data-dir", data]).output, "Production: https://***@example.test/n\n")
    XCTAssertEqual(CLIRun(["notifications", "url", "--clear", "--environment", "Production", "--data-dir", data]).code, 0)
    XCTAssertEqual(CLIRun(["notifications", "url", "--data-dir", data]).output, "Sandbox: none\nProduction: none\n")
    // `off`, as the scenario verb `notifications url off` has it, clears too.
    XCTAssertEqual(CLIRun(["notifications", "url", "https://example.test/n", "--data-dir", data]).code, 0)
    let off = CLIRun(["notifications", "url", "off", "--data-dir", data])
    XCTAssertEqual(off.code, 0, off.errorOutput)
    XCTAssertEqual(off.output, "Sandbox notification URL cleared.\n")
    XCTAssertEqual(CLIRun(["notifications", "url", "--data-dir", data]).output, "Sandbox: none\nProduction: none\n")
    XCTAssertEqual(CLIRun(["notifications", "url", "http://a", "--clear", "--data-dir", data]).code, 64)
    XCTAssertEqual(CLIRun(["notifications", "--environment", "Xcode", "--data-dir", data]).code, 64)
    let listing = CLIRun(["notifications", "--data-dir", data])
    XCTAssertEqual(listing.code, 0, listing.errorOutput)
    XCTAssertTrue(listing.output.hasPrefix("0 notifications in "), listing.output)
    XCTAssertEqual(CLIRun(["notifications", "--data-dir", data + "/none"]).code, 66)
  }
}
