import Foundation
import XCTest

@testable import StorefrontCLI

/// `storefront --serve [ADDR:PORT]`: an option whose value may be left out.
final class ServeOptionTests: XCTestCase {
  private let root = InteractiveCommand.descriptor.options

  func testTheValueIsOptionalAndMayBeInlineOrTheNextWord() throws {
    let bare = try ParsedArguments.parse(["--serve"], commandOptions: root)
    XCTAssertTrue(bare.flag("--serve"))
    XCTAssertNil(bare.value("--serve"))
    XCTAssertEqual(try ParsedArguments.parse(["--serve", "127.0.0.1:0"], commandOptions: root).value("--serve"), "127.0.0.1:0")
    XCTAssertEqual(try ParsedArguments.parse(["--serve=[::1]:0"], commandOptions: root).value("--serve"), "[::1]:0")
    let before = try ParsedArguments.parse(["--serve", "--account", "mina"], commandOptions: root)
    XCTAssertNil(before.value("--serve"), "an option after --serve is not its value")
    XCTAssertEqual(before.global.account, "mina")
  }

  func testTheFirstPassDoesNotTakeTheAddressForASubcommand() throws {
    let first = try ParsedArguments.parse(["--serve", "127.0.0.1:0", "--account", "mina"], commandOptions: nil, rootOptions: root)
    XCTAssertEqual(first.positionals, [])
    let command = try ParsedArguments.parse(["--serve", "run", "x.scenario"], commandOptions: nil, rootOptions: root)
    XCTAssertEqual(command.positionals, ["run", "x.scenario"], "a subcommand word is never the optional value")
  }

  func testServeIsTheInteractiveCommandsOnly() {
    // Without a terminal the interactive command stops after parsing: 69 means --serve was accepted.
    for arguments in [["--serve"], ["--serve", "127.0.0.1:0"], ["--serve=127.0.0.1:0"]] {
      let run = CLIRun(arguments + ["--data-dir", "/nonexistent/sf-serve-option"])
      XCTAssertEqual(run.code, 69, "\(arguments): \(run.errorOutput)")
      XCTAssertTrue(run.errorOutput.contains("storefront run") || run.errorOutput.contains("terminal"), run.errorOutput)
    }
    let wrong = CLIRun(["--serve", "localhost"])
    XCTAssertEqual(wrong.code, 64)
    XCTAssertTrue(
      wrong.errorOutput.hasPrefix("Error: The value 'localhost' is invalid for '--serve [<addr:port>]'"), wrong.errorOutput)
    let elsewhere = CLIRun(["transactions", "--serve"])
    XCTAssertEqual(elsewhere.code, 64)
    XCTAssertTrue(elsewhere.errorOutput.contains("Unknown option '--serve'"), elsewhere.errorOutput)
  }

  func testHelpDocumentsServe() {
    let help = CLIRun(["--help"]).output
    XCTAssertTrue(help.contains("[--serve [<addr:port>]]"), help)
    XCTAssertTrue(help.contains("  --serve [<addr:port>]"), help)
    XCTAssertTrue(help.contains("Server pane"), help)
  }
}
