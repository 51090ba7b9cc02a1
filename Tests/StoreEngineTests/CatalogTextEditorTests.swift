import Foundation
import XCTest

@testable import StoreEngine

/// The text editor behind `storefront catalog set` (issue 26): one price changed is one line changed
/// in every catalog format, whatever the file's line endings or byte order mark, and setting it
/// back gives the same bytes; the edited file loads with the new price.
final class CatalogTextEditorTests: XCTestCase {
  private func corpus() throws -> [(name: String, bytes: [UInt8])] {
    let files = try CatalogEditingCorpus.files()
    XCTAssertGreaterThanOrEqual(files.count, 30, "the fixtures were not found")
    return files
  }

  func testOnePriceIsOneLineAndSettingItBackIsByteIdentical() throws {
    var edited = 0
    for (name, bytes) in try corpus() {
      let catalog = try CatalogDecoder().decode(Data(bytes), path: name)
      guard let product = catalog.products.first else { continue }
      let editor = CatalogTextEditor(bytes: bytes)
      CatalogEditingCorpus.assertSameBytes(editor.bytes, bytes, "\(name): opened and not edited")
      let changed = try editor.settingPrice("12.34", of: product.id.rawValue)
      let before = Self.lines(bytes)
      let after = Self.lines(changed)
      XCTAssertEqual(before.count, after.count, name)
      let differing = zip(before, after).filter { $0 != $1 }
      XCTAssertEqual(differing.count, 1, "\(name): one line changes")
      XCTAssertTrue(differing.first?.1.contains("\"12.34\"") ?? false, "\(name): \(differing)")
      let reloaded = try CatalogDecoder().decode(Data(changed), path: name)
      XCTAssertEqual(reloaded.product(product.id)?.price, Decimal(string: "12.34"), name)
      let back = try CatalogTextEditor(bytes: changed).settingPrice(Self.priceText(product.id.rawValue, in: bytes), of: product.id.rawValue)
      XCTAssertEqual(back, bytes, "\(name): set back, byte for byte")
      edited += 1
    }
    XCTAssertGreaterThanOrEqual(edited, 30)
  }

  func testBadEditsAreRefusedWithTheirReason() throws {
    let bytes = Array(try Data(contentsOf: CatalogTestFiles.fixture("format-6.3.storekit")))
    let catalog = try CatalogDecoder().decode(Data(bytes), path: "format-6.3.storekit")
    let id = try XCTUnwrap(catalog.products.first).id.rawValue
    let editor = CatalogTextEditor(bytes: bytes)
    for bad in ["-1", "abc", "", "1.2.3", ".5", "1e3", "0x10", "1,99"] {
      XCTAssertThrowsError(try editor.settingPrice(bad, of: id), bad) { error in
        XCTAssertEqual(error as? CatalogTextEditor.Failure, .invalidPrice(bad))
      }
    }
    XCTAssertThrowsError(try editor.settingPrice("1", of: id + "x")) { error in
      guard case .unknownProduct(let name, _)? = error as? CatalogTextEditor.Failure else { return XCTFail("\(error)") }
      XCTAssertEqual(name, id + "x")
      XCTAssertTrue(String(describing: error).contains("did you mean '\(id)'"), "\(error)")
    }
  }

  /// The file's lines, split at LF (a CRLF line keeps its CR).
  static func lines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The text of `product`'s displayPrice as the file spells it.
  static func priceText(_ product: String, in bytes: [UInt8]) throws -> String {
    let ranges = JSONSourceLocator(bytes).valueRanges()
    for (path, range) in ranges where path.components.last == .key("productID") {
      guard CatalogTextEditor.string(Array(bytes[range])) == product else { continue }
      let price = try XCTUnwrap(ranges[JSONPath(Array(path.components.dropLast()) + [.key("displayPrice")])])
      return try XCTUnwrap(CatalogTextEditor.string(Array(bytes[price])))
    }
    throw XCTSkip("no product \(product)")
  }
}
