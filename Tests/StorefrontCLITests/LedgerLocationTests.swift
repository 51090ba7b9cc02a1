import Foundation
import StoreEngine
import StorefrontLive
import XCTest

@testable import StorefrontCLI

/// `--ledger` and `$STOREFRONT_LEDGER` pick the shared PostgreSQL ledger; without them the data
/// directory's SQLite file stays the ledger. Values are never repeated in messages (a URI may hold a password).
final class LedgerLocationTests: XCTestCase {
  func testTheOptionWinsOverTheVariableAndTheDefaultIsTheDataDirectory() throws {
    let parsed = try ParsedArguments.parse(
      ["run", "-", "--ledger", "postgresql://qa:pw@db.example/team"], commandOptions: RunCommand.descriptor.options)
    XCTAssertEqual(parsed.global.ledger, "postgresql://qa:pw@db.example/team")
    let chosen = try LedgerLocation.resolve(parsed.global, environment: ["STOREFRONT_LEDGER": "postgresql://other/x"])
    XCTAssertEqual(chosen.displayName, "postgresql://qa@db.example/team", "named without the password")
    XCTAssertTrue(chosen.isShared)
    let fromVariable = try LedgerLocation.resolve(GlobalOptions(), environment: ["STOREFRONT_LEDGER": "postgres://db.example:6543/x"])
    XCTAssertEqual(fromVariable.displayName, "postgresql://db.example:6543/x")
    let local = try LedgerLocation.resolve(GlobalOptions(dataDirectory: "/d"), environment: ["STOREFRONT_LEDGER": ""])
    XCTAssertEqual(local, .sqlite(directory: URL(fileURLWithPath: "/d", isDirectory: true)))
    XCTAssertEqual(local.displayName, "/d/ledger.sqlite")
    XCTAssertFalse(local.isShared)
  }

  func testAValueThatIsNotAPostgreSQLURIIsRefusedWithoutRepeatingIt() {
    XCTAssertThrowsError(
      try ParsedArguments.parse(["run", "-", "--ledger", "mysql://qa:s3cret@db/x"], commandOptions: RunCommand.descriptor.options)
    ) { error in
      XCTAssertTrue("\(error)".contains("not a PostgreSQL URI"), "\(error)")
      XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
    }
    XCTAssertThrowsError(try LedgerLocation.resolve(GlobalOptions(), environment: ["STOREFRONT_LEDGER": "qa:s3cret@db"])) { error in
      guard case .cannotOpen(let path, let reason)? = error as? LedgerError else { return XCTFail("\(error)") }
      XCTAssertEqual(path, "$STOREFRONT_LEDGER")
      XCTAssertFalse(reason.contains("s3cret"), reason)
    }
  }
}
