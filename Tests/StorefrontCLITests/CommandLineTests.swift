import Foundation
import XCTest

@testable import StorefrontCLI

/// Help, version, usage errors, the command registry and global options.
final class CommandLineTests: XCTestCase {
  func testVersion() {
    let run = CLIRun(["--version"])
    XCTAssertEqual(run.code, 0)
    XCTAssertEqual(run.output, "0.1.0\n")
  }

  func testHelpListsEveryContractCommandAndMarksUnavailableOnes() {
    let run = CLIRun(["--help"])
    XCTAssertEqual(run.code, 0)
    XCTAssertEqual(run.errorOutput, "")
    for option in ["--catalog <path>", "--data-dir <dir>", "--account <name>", "--seed <n>", "--storefront <code>", "--locale <id>", "--bundle-id <id>", "--version"] {
      XCTAssertTrue(run.output.contains(option), option)
    }
    let lines = run.output.split(separator: "\n").map(String.init)
    // A command's entry: its line plus the wrapped lines under it.
    func line(_ command: String) -> String {
      guard let start = lines.firstIndex(where: { $0.hasPrefix("  \(command) ") }) else { return "" }
      let rest = lines[(start + 1)...].prefix { $0.hasPrefix("      ") }
      return ([lines[start]] + rest.map { $0.trimmingCharacters(in: .whitespaces) }).joined(separator: " ")
    }
    XCTAssertFalse(line("catalog check").contains("not available"), line("catalog check"))
    XCTAssertFalse(line("catalog show").contains("not available"))
    for command in ["run", "transactions", "verify", "certificate", "(none)"] {
      XCTAssertFalse(line(command).isEmpty, "help does not list \(command)")
      XCTAssertFalse(line(command).contains("not available"), line(command))
    }
    XCTAssertEqual(CLIRun(["help"]).output, run.output)
  }

  func testCommandHelp() {
    let run = CLIRun(["catalog", "show", "--help"])
    XCTAssertEqual(run.code, 0)
    XCTAssertTrue(run.output.contains("USAGE: storefront catalog show [PATH] [--json] [--locale <id>] [--storefront <code>]"), run.output)
    XCTAssertTrue(run.output.contains("--json"))
    XCTAssertEqual(CLIRun(["help", "catalog", "check"]).output, CLIRun(["catalog", "check", "-h"]).output)
    let group = CLIRun(["catalog"])
    XCTAssertEqual(group.code, 0)
    XCTAssertTrue(group.output.contains("  check "), group.output)
  }

  func testUnknownCommandSuggestsTheClosest() {
    let run = CLIRun(["catalgo", "show"])
    XCTAssertEqual(run.code, 64)
    XCTAssertEqual(run.errorOutput, """
      Error: Unknown command 'catalgo'. Did you mean 'catalog'?
      Usage: storefront [<options>] [<subcommand>]
        See 'storefront --help' for more information.

      """)
    let sub = CLIRun(["catalog", "shwo"])
    XCTAssertEqual(sub.code, 64)
    XCTAssertTrue(sub.errorOutput.hasPrefix("Error: Unknown subcommand 'shwo' for 'catalog'. Did you mean 'show'?"), sub.errorOutput)
    let path = CLIRun(["Store.storekit"])
    XCTAssertTrue(path.errorOutput.contains("pass it as 'storefront --catalog Store.storekit'"), path.errorOutput)
  }

  func testUnknownOptionNamesItAndSuggests() {
    let run = CLIRun(["catalog", "show", "--jsn"])
    XCTAssertEqual(run.code, 64)
    XCTAssertEqual(run.errorOutput, """
      Error: Unknown option '--jsn'. Did you mean '--json'?
      Usage: storefront catalog show [PATH] [--json] [--locale <id>] [--storefront <code>]
        See 'storefront catalog show --help' for more information.

      """)
    XCTAssertTrue(CLIRun(["catalog", "check", "--catlog", "x"]).errorOutput.hasPrefix("Error: Unknown option '--catlog'. Did you mean '--catalog'?"))
    // A misspelled option before the command blames the option, not its value.
    let misspelled = CLIRun(["--acount", "mina"])
    XCTAssertEqual(misspelled.code, 64)
    XCTAssertTrue(misspelled.errorOutput.hasPrefix("Error: Unknown option '--acount'. Did you mean '--account'?"), misspelled.errorOutput)
    XCTAssertTrue(CLIRun(["catalog", "show", "--locale"]).errorOutput.hasPrefix("Error: Missing value for '--locale <id>'."))
    XCTAssertTrue(CLIRun(["--seed", "abc"]).errorOutput.hasPrefix("Error: The value 'abc' is invalid for '--seed <n>'"))
    XCTAssertTrue(CLIRun(["catalog", "show", "--json=yes"]).errorOutput.hasPrefix("Error: The flag '--json' does not take a value."))
  }

  func testDefaultCommandWithoutATerminalPointsToTheHeadlessRunner() {
    let run = CLIRun([])
    XCTAssertEqual(run.code, 69)
    XCTAssertEqual(run.output, "")
    XCTAssertTrue(run.errorOutput.contains("storefront needs a terminal"), run.errorOutput)
    XCTAssertTrue(run.errorOutput.contains("storefront run SCRIPT"), run.errorOutput)
    XCTAssertEqual(CLIRun(["--catalog", "x.storekit", "--seed", "7"]).code, 69)
  }

  func testGlobalOptionsParseAnywhere() throws {
    let parsed = try ParsedArguments.parse(
      ["--catalog=a.storekit", "catalog", "show", "--data-dir", "/d", "--account", "jane", "--seed", "42",
       "--storefront", "kor", "--locale", "ko_KR", "--bundle-id", "com.example.app", "--json", "--", "--odd"],
      commandOptions: CatalogShowCommand.descriptor.options)
    XCTAssertEqual(parsed.global, GlobalOptions(
      catalogPath: "a.storekit", dataDirectory: "/d", account: "jane", seed: 42, storefront: "KOR", locale: "ko_KR",
      bundleID: "com.example.app"))
    XCTAssertTrue(parsed.flag("--json"))
    XCTAssertEqual(parsed.positionals, ["catalog", "show", "--odd"])
  }

  func testDataDirectoryResolution() {
    let none = GlobalOptions()
    XCTAssertEqual(GlobalOptions(dataDirectory: "/explicit").dataDirectory(environment: ["STOREFRONT_DATA_DIR": "/env"]), "/explicit")
    XCTAssertEqual(none.dataDirectory(environment: ["STOREFRONT_DATA_DIR": "/env", "XDG_DATA_HOME": "/xdg"]), "/env")
    XCTAssertEqual(none.dataDirectory(environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"]), "/xdg/storefront")
    XCTAssertEqual(none.dataDirectory(environment: ["XDG_DATA_HOME": "", "HOME": "/home/u"]), "/home/u/.local/share/storefront")
    XCTAssertEqual(none.dataDirectory(environment: ["HOME": "/home/u"]), "/home/u/.local/share/storefront")
  }
}
