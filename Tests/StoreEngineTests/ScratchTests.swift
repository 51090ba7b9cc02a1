import Foundation
import XCTest
@testable import StoreEngine
final class ScratchTests: XCTestCase {
  func testPrint() throws {
    let sample = CatalogTestFiles.sharedSamples.appendingPathComponent("apple-food-truck_v2.0_arabic_nonconsumable_codeoffers_intro-offers.storekit")
    var text = try String(contentsOf: sample, encoding: .utf8)
    let r = text.range(of: "\"displayPrice\" : \"4.99\",")!
    text.replaceSubrange(r, with: "\"displayPrice\" : \"4.99\"")
    for t in [text, "{\n  \"a\" : tru\n}", "{\n  \"products\" : [\n", "", "{\"a\": 1}}", "{\"a\" 1}", "{\"a\": \"x\ny\"}", "[1 2]", "{\"version\": {\"major\": 4}, \"products\": [{\"productID\": \"a\", \"type\": \"Consumable\", \"displayPrice\": \"1,99\"}, {\"productID\": \"a\", \"type\": \"Consumabel\", \"displayPrice\": 0.99}], \"settings\": {\"_storefront\": \"KRO\", \"_askToBuyEnabled\": \"yes\"}}"] {
      print("-----"); print(CatalogTestFiles.issues(t).map(\.description).joined(separator: "\n"))
    }
  }
}
