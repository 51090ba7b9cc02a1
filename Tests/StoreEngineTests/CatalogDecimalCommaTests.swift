import Foundation
import XCTest

@testable import StoreEngine

/// `displayPrice` written with a decimal comma: one reading loads with a warning, more than one
/// (or a mix of dots and a comma) is a located error that says what to write.
final class CatalogDecimalCommaTests: XCTestCase {
  private func catalog(prices: [String]) -> String {
    let products = prices.enumerated().map { index, price in
      "    {\"productID\": \"p\(index)\", \"type\": \"Consumable\", \"displayPrice\": \"\(price)\"}"
    }
    return "{\"version\": {\"major\": 4, \"minor\": 0}, \"products\": [\n\(products.joined(separator: ",\n"))\n]}"
  }

  func testDecimalCommaPricesLoadWithAWarningNamingFileAndLine() throws {
    let catalog = try CatalogDecoder().decode(Data(catalog(prices: ["2,99", "0,08", "1.49", "12,5"]).utf8), path: "Store.storekit")
    XCTAssertEqual(catalog.products.map(\.price), ["2.99", "0.08", "1.49", "12.5"].map { Decimal(string: $0) ?? -1 })
    XCTAssertEqual(catalog.warnings.map(\.located), [
      "Store.storekit:2:63: warning: products[0].displayPrice: '2,99' has a decimal comma; read as 2.99",
      "Store.storekit:3:63: warning: products[1].displayPrice: '0,08' has a decimal comma; read as 0.08",
      "Store.storekit:5:63: warning: products[3].displayPrice: '12,5' has a decimal comma; read as 12.5",
    ])
    XCTAssertEqual(catalog.warnings.first?.hint, "write \"2.99\": Xcode writes prices with a dot")
    XCTAssertEqual(catalog.warnings.map(\.severity), [.warning, .warning, .warning])
  }

  func testDecimalCommaAmbiguousPricesStayLocatedErrorsSayingWhatToWrite() {
    let issues = CatalogTestFiles.issues(catalog(prices: ["1,000", "1.000,5", "1,000,000", "1,5,0"]))
    XCTAssertEqual(issues.map(\.located), [
      "test.storekit:2:63: products[0].displayPrice: '1,000' is not a price: its comma could separate decimals or group thousands",
      "test.storekit:3:63: products[1].displayPrice: '1.000,5' is not a price: prices have a dot for decimals and no grouping",
      "test.storekit:4:63: products[2].displayPrice: '1,000,000' is not a price: prices have a dot for decimals and no grouping",
      "test.storekit:5:63: products[3].displayPrice: '1,5,0' is not a price",
    ])
    XCTAssertEqual(issues.map(\.hint).prefix(3), [
      "write \"1.000\" (if the comma separates decimals) or \"1000\" (if commas group thousands)",
      "write \"1000.5\" (if the comma separates decimals)",
      "write \"1000000\" (if commas group thousands)",
    ])
  }

  func testDecimalCommaWarningsDoNotSurviveIntoAFileWithErrors() {
    // The file is refused for its error; the warning of the other price is not an error.
    let issues = CatalogTestFiles.issues(catalog(prices: ["2,99", "$1"]))
    XCTAssertEqual(issues.map(\.message), ["products[1].displayPrice: '$1' is not a price"])
  }
}
