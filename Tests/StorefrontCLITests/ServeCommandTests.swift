import Foundation
import XCTest

@testable import StorefrontCLI

/// `storefront serve`'s command line, in-process; serving itself is tested with the real binary (IntegrationTests).
final class ServeCommandTests: XCTestCase {
  func testHelpDescribesEveryOption() {
    let run = CLIRun(["serve", "--help"])
    XCTAssertEqual(run.code, 0)
    XCTAssertTrue(run.output.contains("USAGE: storefront serve [--listen <addr:port>] [--environment Sandbox|Production] [--tls] [--ready-file <path>] [--json]"), run.output)
    for option in ["--listen <addr:port>", "--environment <name>", "--ready-file <path>", "--json", "--tls", "--data-dir <dir>", "--bundle-id <id>"] {
      XCTAssertTrue(run.output.contains("  \(option) "), option)
    }
    // Long enough that help puts their text on the next line.
    for option in ["--connection-timeout <seconds>", "--connection-limit <count>"] {
      XCTAssertTrue(run.output.contains("  \(option)\n"), option)
    }
    XCTAssertTrue(run.output.contains("127.0.0.1:8808"))
  }

  func testBadListenAddressesAreUsageErrors() throws {
    let data = try CLIFiles.temporaryDirectory(self).path
    for value in ["8808", "example.com:80", "127.0.0.1:99999", "127.0.0.1:"] {
      let run = CLIRun(["serve", "--listen", value, "--data-dir", data])
      XCTAssertEqual(run.code, 64, value)
      XCTAssertTrue(run.errorOutput.hasPrefix("Error: The value '\(value)' is invalid for '--listen <addr:port>'"), run.errorOutput)
    }
  }

  func testUnknownEnvironmentAndOperandsAreUsageErrors() throws {
    let data = try CLIFiles.temporaryDirectory(self).path
    let environment = CLIRun(["serve", "--environment", "Xcode", "--data-dir", data])
    XCTAssertEqual(environment.code, 64)
    XCTAssertTrue(environment.errorOutput.hasPrefix("Error: Unknown environment 'Xcode': use Sandbox or Production."), environment.errorOutput)
    XCTAssertEqual(CLIRun(["serve", "extra", "--data-dir", data]).code, 64)
  }
}
