import Foundation
import XCTest

/// `storefront catalog new`, `add` and `remove` (issue 26): a catalog built from the command line
/// loads with what was asked; bad input exits 65 (64 for usage) with nothing written.
final class CatalogAuthoringCommandTests: XCTestCase {
  func testACatalogIsBuiltFromTheCommandLine() throws {
    let path = try CLIFiles.temporaryDirectory(self).appendingPathComponent("New.storekit").path
    let new = CLIRun(["catalog", "new", path, "--locale", "ko_KR"])
    XCTAssertEqual(new.code, 0, new.errorOutput)
    for arguments in [
      ["consumable", "com.example.coins", "price=0.99", "name=100 Coins", "name@ja=コイン"],
      ["non-consumable", "com.example.unlock", "price=4.99", "family-shareable=true"],
      ["non-renewing", "com.example.season", "price=9.99"],
      ["auto-renewable", "com.example.pro.monthly", "group=Pro", "price=2.99", "intro=free:P1W"],
      ["auto-renewable", "com.example.pro.yearly", "period=P1Y", "price=19.99"],
    ] {
      let run = CLIRun(["catalog", "add", path] + arguments)
      XCTAssertEqual(run.code, 0, "\(arguments): \(run.errorOutput)")
      XCTAssertTrue(run.output.contains("added \(arguments[0]) \(arguments[1])"), run.output)
    }
    let check = CLIRun(["catalog", "check", path])
    XCTAssertEqual(check.code, 0, check.errorOutput)
    XCTAssertTrue(check.output.contains("5 products, 1 subscription group"), check.output)
    let show = CLIRun(["catalog", "show", path, "--json"])
    XCTAssertTrue(show.output.contains("com.example.pro.yearly"), show.output)
    let remove = CLIRun(["catalog", "remove", path, "com.example.season"])
    XCTAssertEqual(remove.code, 0, remove.errorOutput)
    XCTAssertTrue(CLIRun(["catalog", "check", path]).output.contains("4 products"))
  }

  /// Each command's hint for a missing file fits it: editing points to `catalog new`, `check` (whose
  /// path is required) only to the path, `new` names the missing folder.
  func testAMissingFileOrFolderIsNamedWithWhatToDoForEachCommand() throws {
    let directory = try CLIFiles.temporaryDirectory(self)
    let missing = directory.appendingPathComponent("Missing.storekit").path
    for command in ["add", "set", "remove"] {
      let arguments = command == "add" ? [missing, "consumable", "x"] : command == "set" ? [missing, "x", "price=1"] : [missing, "x"]
      let run = CLIRun(["catalog", command] + arguments)
      XCTAssertEqual(run.code, 66, run.errorOutput)
      XCTAssertTrue(run.errorOutput.contains("or make it with 'storefront catalog new \(missing)'"), run.errorOutput)
      XCTAssertFalse(run.errorOutput.contains("built-in catalog"), run.errorOutput)
    }
    let check = CLIRun(["catalog", "check", missing])
    XCTAssertEqual(check.code, 66)
    XCTAssertTrue(check.errorOutput.contains("No catalog at '\(missing)'. Check the path"), check.errorOutput)
    XCTAssertFalse(check.errorOutput.contains("leave it out"), check.errorOutput)
    let inMissingFolder = directory.appendingPathComponent("nofolder/Store.storekit").path
    let new = CLIRun(["catalog", "new", inMissingFolder])
    XCTAssertEqual(new.code, 73)
    XCTAssertTrue(new.errorOutput.contains("the folder '\(directory.appendingPathComponent("nofolder").path)' does not exist"), new.errorOutput)
    XCTAssertFalse(FileManager.default.fileExists(atPath: inMissingFolder))
  }

  func testBadInputIsRefusedWithNothingWritten() throws {
    let path = try CLIFiles.temporaryDirectory(self).appendingPathComponent("New.storekit").path
    XCTAssertEqual(CLIRun(["catalog", "new", path]).code, 0)
    XCTAssertEqual(CLIRun(["catalog", "add", path, "consumable", "coins"]).code, 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let cases: [([String], Int32, String)] = [
      (["add", path, "consumable", "coins"], 65, "product 'coins' is already in the catalog"),
      (["add", path, "gadget", "x"], 65, "unknown product type 'gadget'"),
      (["add", path, "consumable", "x", "price=-2"], 65, "price '-2' is not a price"),
      (["add", path, "consumable", "x", "price=two"], 65, "price 'two' is not a price"),
      (["add", path, "consumable", "x", "name@qq_ZZ=x"], 65, "'qq_ZZ' is not a locale"),
      (["add", path, "auto-renewable", "x"], 65, "needs a group: add group=NAME"),
      (["add", path, "consumable"], 64, "catalog add needs FILE, TYPE and PRODUCT_ID"),
      (["remove", path, "nope"], 65, "no product 'nope' in the catalog"),
      (["new", path], 73, "already exists"),
      (["new", path + ".2", "--locale", "qq_ZZ"], 65, "'qq_ZZ' is not a locale"),
    ]
    for (arguments, code, message) in cases {
      let run = CLIRun(["catalog"] + arguments)
      XCTAssertEqual(run.code, code, "\(arguments): \(run.errorOutput)")
      XCTAssertTrue(run.errorOutput.contains(message), "\(arguments): \(run.errorOutput)")
      XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "\(arguments)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".2"))
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    let readOnly = CLIRun(["catalog", "set", path, "coins", "price=2"])
    XCTAssertEqual(readOnly.code, 73, readOnly.errorOutput)
    XCTAssertTrue(readOnly.errorOutput.contains("is read-only; nothing was written"), readOnly.errorOutput)
    let help = CLIRun(["catalog", "set", "--help"])
    for key in ["family-shareable", "period", "group", "level", "intro", "promo@OFFER_ID"] {
      XCTAssertTrue(help.output.contains(key), "--help lists \(key): \(help.output)")
    }
  }
}
