import Foundation
import XCTest

@testable import StoreEngine

/// Saving an edited catalog (issue 26): atomic, with a `.bak`; refused, with the file as it was,
/// when another process changed it, or it became read-only or unreadable after it was opened.
final class CatalogFileTests: XCTestCase {
  private func file() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("Store.storekit").path
    try CatalogFile.create(try CatalogTextEditor.newCatalog(seed: 1), at: path)
    return path
  }

  private func leftovers(besides path: String) throws -> [String] {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }
  }

  func testASaveReplacesTheFileAndKeepsThePreviousOne() throws {
    let path = try file()
    var file = try CatalogFile.open(path: path)
    let original = file.bytes
    var editor = CatalogTextEditor(bytes: original, seed: 1)
    try editor.add(.consumable, id: "coins")
    try file.save(editor.bytes)
    XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), editor.bytes)
    XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: CatalogFile.backupPath(of: path)))), original)
    XCTAssertFalse(file.changedOnDisk)
    try file.save(original)
    XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), original, "saved back, byte for byte")
    XCTAssertEqual(try leftovers(besides: path), [])
    XCTAssertThrowsError(try CatalogFile.create(original, at: path), "create never replaces a file")
  }

  func testAConcurrentEditIsRefusedAndKept() throws {
    let path = try file()
    var file = try CatalogFile.open(path: path)
    var theirs = CatalogTextEditor(bytes: file.bytes, seed: 2)
    try theirs.add(.consumable, id: "theirs")
    try Data(theirs.bytes).write(to: URL(fileURLWithPath: path))
    XCTAssertTrue(file.changedOnDisk)
    var mine = CatalogTextEditor(bytes: file.bytes, seed: 3)
    try mine.add(.consumable, id: "mine")
    XCTAssertThrowsError(try file.save(mine.bytes)) { error in
      XCTAssertEqual(error as? CatalogFile.SaveError, .changedOnDisk(path: path))
      XCTAssertTrue("\(error)".contains("changed on disk since it was opened"), "\(error)")
    }
    XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), theirs.bytes, "their edit is kept")
    XCTAssertFalse(FileManager.default.fileExists(atPath: CatalogFile.backupPath(of: path)))
  }

  func testAFileMadeReadOnlyOrUnreadableIsNotWritten() throws {
    let path = try file()
    var file = try CatalogFile.open(path: path)
    let original = file.bytes
    var editor = CatalogTextEditor(bytes: original, seed: 4)
    try editor.add(.consumable, id: "coins")
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    XCTAssertThrowsError(try file.save(editor.bytes)) { XCTAssertEqual($0 as? CatalogFile.SaveError, .readOnly(path: path)) }
    try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
    XCTAssertThrowsError(try file.save(editor.bytes)) { error in
      guard case .unreadable? = error as? CatalogFile.SaveError else { return XCTFail("\(error)") }
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))), original)
    try FileManager.default.removeItem(atPath: path)
    XCTAssertThrowsError(try file.save(editor.bytes)) { XCTAssertEqual($0 as? CatalogFile.SaveError, .changedOnDisk(path: path)) }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path), "a removed file is not brought back")
    XCTAssertEqual(try leftovers(besides: path), [])
  }
}
