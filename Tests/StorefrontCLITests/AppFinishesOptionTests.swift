import XCTest

@testable import StorefrontCLI

/// `--app-finishes after-server URL`: a value that takes the next word.
final class AppFinishesOptionTests: XCTestCase {
  func testAfterServerTakesTheURLAsItsSecondWord() throws {
    let options = [AppFinishesOption.spec]
    let parsed = try ParsedArguments.parse(["run", "s.scenario", "--app-finishes", "after-server", "http://h:1/v", "--json"], commandOptions: options + [OptionSpec("--json", help: "")])
    XCTAssertEqual(parsed.value("--app-finishes"), "after-server http://h:1/v")
    XCTAssertEqual(parsed.positionals, ["run", "s.scenario"])
    XCTAssertEqual(try ParsedArguments.parse(["--app-finishes", "at-once", "s"], commandOptions: options).positionals, ["s"])
    XCTAssertEqual(try ParsedArguments.parse(["--app-finishes=after-server=http://h/v"], commandOptions: options).value("--app-finishes"), "after-server=http://h/v")
    XCTAssertThrowsError(try ParsedArguments.parse(["--app-finishes", "after-server"], commandOptions: options)) { error in
      XCTAssertEqual((error as? UsageError)?.message, "Missing <url> after '--app-finishes after-server': write '--app-finishes after-server <url>'.")
    }
  }
}
