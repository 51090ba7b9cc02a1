import Foundation
import StoreEngine
import XCTest

/// `storefront catalog set FILE PRODUCT_ID price=…` (issue 26, its first part): the file changes by
/// one line, the previous version is kept as .FILE.bak, the edited file loads; bad input changes
/// nothing and says what to write.
final class CatalogSetCommandTests: XCTestCase {
  private func copy() throws -> String {
    let url = try CLIFiles.temporaryDirectory(self).appendingPathComponent("Products.storekit")
    try FileManager.default.copyItem(atPath: CLIFiles.fixture("format-6.3.storekit"), toPath: url.path)
    return url.path
  }

  func testAPriceIsSetInPlaceAndThePreviousVersionKept() throws {
    let path = try copy()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let run = CLIRun(["catalog", "set", path, "fixture.v63.bundle.monthly", "price=12.34"])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    XCTAssertEqual(run.output, "\(path): fixture.v63.bundle.monthly price=12.34 (previous version: \(CatalogFile.backupName(of: path)))\n")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: CatalogFile.backupPath(of: path))), before)
    let after = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    let old = String(decoding: before, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(zip(old, after).filter { $0 != $1 }.count, 1)
    let show = CLIRun(["catalog", "show", path, "--json"])
    XCTAssertEqual(show.code, 0, show.errorOutput)
    XCTAssertTrue(show.output.contains("12.34"), show.output)
  }

  func testBadInputChangesNothing() throws {
    let path = try copy()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let cases: [([String], Int32, String)] = [
      (["fixture.v63.bundle.monthly", "price=-1"], 65, "price '-1' is not a price"),
      (["fixture.v63.bundle.monthly", "price=abc"], 65, "price 'abc' is not a price"),
      (["fixture.nope", "price=1"], 65, "no product 'fixture.nope' in the catalog"),
      (["fixture.v63.bundle.monthly", "colour=red"], 65, "unknown key 'colour'"),
      (["fixture.v63.coins", "period=P1M"], 65, "period is for auto-renewable subscriptions"),
      (["fixture.v63.coins", "family-shareable=maybe"], 65, "write true or false"),
      (["fixture.v63.bundle.monthly", "price"], 64, "is not key=value"),
    ]
    for (arguments, code, message) in cases {
      let run = CLIRun(["catalog", "set", path] + arguments)
      XCTAssertEqual(run.code, code, "\(arguments): \(run.errorOutput)")
      XCTAssertTrue(run.errorOutput.contains(message), "\(arguments): \(run.errorOutput)")
      XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "\(arguments)")
    }
    let broken = try CLIFiles.temporaryDirectory(self).appendingPathComponent("Broken.storekit")
    try Data(#"{ "products": [ { "productID": "a", "displayPrice": "1" "#.utf8).write(to: broken)
    let malformed = CLIRun(["catalog", "set", broken.path, "a", "price=2"])
    XCTAssertEqual(malformed.code, 65, malformed.errorOutput)
    XCTAssertTrue(malformed.errorOutput.contains("\(broken.path):1:"), malformed.errorOutput)
    XCTAssertTrue(malformed.errorOutput.contains("does not load as it is, so it was not edited"), malformed.errorOutput)
    let missing = CLIRun(["catalog", "set", path + ".missing", "x", "price=1"])
    XCTAssertEqual(missing.code, 66, missing.errorOutput)
    XCTAssertFalse(FileManager.default.fileExists(atPath: CatalogFile.backupPath(of: path)), "no edit, no backup")
  }

  func testALocalizedNameAndDescriptionAreSetForTheirLocale() throws {
    let path = try copy()
    let before = try String(contentsOfFile: path, encoding: .utf8)
    let run = CLIRun(["catalog", "set", path, "fixture.v63.coins", "name@ko=동전 \"100\"", "description=Coins/for you"])
    XCTAssertEqual(run.code, 0, run.errorOutput)
    let after = try String(contentsOfFile: path, encoding: .utf8)
    let changed = zip(before.split(separator: "\n", omittingEmptySubsequences: false), after.split(separator: "\n", omittingEmptySubsequences: false))
      .filter { $0 != $1 }.map(\.1)
    XCTAssertEqual(changed.count, 2, "\(changed)")
    XCTAssertTrue(changed.contains { $0.contains(#""displayName" : "동전 \"100\"""#) }, "\(changed)")
    XCTAssertTrue(changed.contains { $0.contains(#""description" : "Coins/for you""#) }, "\(changed)")
    let show = CLIRun(["catalog", "show", path, "--locale", "ko"])
    XCTAssertTrue(show.output.contains("동전 \"100\""), show.output)
    let added = CLIRun(["catalog", "set", path, "fixture.v63.coins", "name@fr=Pièces"])
    XCTAssertEqual(added.code, 0, added.errorOutput)
    XCTAssertTrue(CLIRun(["catalog", "show", path, "--locale", "fr"]).output.contains("Pièces"), "a new locale adds a localization")
    let unknown = CLIRun(["catalog", "set", path, "fixture.v63.coins", "name@xx_QQ=a"])
    XCTAssertEqual(unknown.code, 65)
    XCTAssertTrue(unknown.errorOutput.contains("'xx_QQ' is not a locale"), unknown.errorOutput)
  }
}
