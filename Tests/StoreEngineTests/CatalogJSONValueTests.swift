import Foundation
import XCTest

@testable import StoreEngine

/// The catalog reads JSON through `JSONDecoder` into `JSONValue`, with `JSONSerialization` as the
/// fallback; both roads must give the walker the same tree.
final class CatalogJSONValueTests: XCTestCase {
  private func viaDecoder(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  private func viaSerialization(_ data: Data) throws -> JSONValue {
    JSONValue(foundation: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
  }

  func testEveryKindDecodes() throws {
    let value = try viaDecoder(#"{"s":"x","n":2.5,"i":3,"t":true,"f":false,"z":null,"a":[1,"b"],"o":{}}"#)
    XCTAssertEqual(value, .object([
      "s": .string("x"), "n": .number(2.5), "i": .number(3), "t": .bool(true), "f": .bool(false),
      "z": .null, "a": .array([.number(1), .string("b")]), "o": .object([:]),
    ]))
  }

  func testSerializationTreeConvertsToTheSameValues() throws {
    let text = #"{"s":"x","n":2.5,"i":3,"t":true,"f":false,"z":null,"a":[1,"b",[0]],"o":{"k":"v"}}"#
    XCTAssertEqual(try viaSerialization(Data(text.utf8)), try viaDecoder(text))
  }

  func testTheDefaultCatalogReadsTheSameBothWays() throws {
    let data = try Data(contentsOf: CatalogTestFiles.packageRoot.appendingPathComponent("Catalog/Default.storekit"))
    let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
    XCTAssertEqual(decoded, try viaSerialization(data))
    XCTAssertNotNil(decoded.objectValue?["products"]?.arrayValue?.first?.objectValue?["productID"]?.stringValue)
  }

  func testKindsNameTheValueForMessages() {
    XCTAssertEqual(JSONValue.number(3).kind, "the number 3")
    XCTAssertEqual(JSONValue.number(0.99).kind, "the number 0.99")
    XCTAssertEqual(JSONValue.bool(true).kind, "true")
    XCTAssertEqual(JSONValue.null.kind, "null")
    XCTAssertEqual(JSONValue.array([]).kind, "an array")
    XCTAssertEqual(JSONValue.object([:]).kind, "an object")
    XCTAssertEqual(JSONValue.string("").kind, "a string")
  }

  func testABooleanIsNotAWholeNumber() {
    let text = """
      { "products" : [], "settings" : { "_timeRate" : true }, "version" : { "major" : 4, "minor" : 0 } }
      """
    let messages = CatalogTestFiles.issues(text).map(\.message)
    XCTAssertEqual(messages, ["settings._timeRate: must be a whole number, not true"])
  }

  func testAPriceWrittenAsANumberIsShownAsWritten() {
    let text = """
      { "products" : [ { "displayPrice" : 1, "productID" : "a", "type" : "Consumable" } ], "version" : { "major" : 4, "minor" : 0 } }
      """
    let issues = CatalogTestFiles.issues(text)
    XCTAssertEqual(issues.map(\.message), ["products[0].displayPrice: price must be a string, not 1"])
    XCTAssertEqual(issues.first?.hint, "Xcode writes prices as strings: \"displayPrice\" : \"1\"")
  }

  func testWithDuplicateKeysTheFirstCountsAndIsTheOneLocated() {
    let text = """
      {
        "products" : [ { "displayPrice" : "oops", "displayPrice" : "1", "productID" : "a", "type" : "Consumable" } ],
        "version" : { "major" : 4, "minor" : 0 }
      }
      """
    let issues = CatalogTestFiles.issues(text)
    XCTAssertEqual(issues.map(\.message), ["products[0].displayPrice: 'oops' is not a price"])
    XCTAssertEqual(issues.first.map { [$0.line, $0.column] }, [2, 37])
  }

  // MARK: - Decoding along the .storekit shape

  private func shaped(_ data: Data) throws -> JSONValue {
    try JSONDecoder().decode(StoreKitJSON.self, from: data).root
  }

  func testTheShapeReadsRealFilesExactlyAsTheGenericDecodingDoes() throws {
    var files = [CatalogTestFiles.packageRoot.appendingPathComponent("Catalog/Default.storekit")]
    files += ["1.0", "1.1", "1.2", "2.0", "3.0", "4.0", "5.0"].map { CatalogTestFiles.fixture("format-\($0).storekit") }
    let samples = (try? FileManager.default.contentsOfDirectory(atPath: CatalogTestFiles.sharedSamples.path)) ?? []
    files += samples.filter { $0.hasSuffix(".storekit") }.map { CatalogTestFiles.sharedSamples.appendingPathComponent($0) }
    for file in files {
      let data = try Data(contentsOf: file)
      XCTAssertEqual(try shaped(data), try JSONDecoder().decode(JSONValue.self, from: data), file.lastPathComponent)
    }
  }

  func testValuesOfTheWrongKindAreReadAsWhatTheyAre() throws {
    let text = """
      { "products" : [ "x", 1, null, { "productID" : 5, "familyShareable" : "yes", "localizations" : { "locale" : [] } } ],
        "subscriptionGroups" : [ { "subscriptions" : [ { "groupNumber" : "1", "introductoryOffer" : [ true ] } ] } ],
        "settings" : "s", "version" : [ 4 ], "identifier" : { } }
      """
    let data = Data(text.utf8)
    XCTAssertEqual(try shaped(data), try JSONDecoder().decode(JSONValue.self, from: data))
    XCTAssertEqual(try shaped(data), try viaSerialization(data))
  }

  func testABadValueInAMemberTheStorefrontDoesNotReadStillMakesTheFileInvalid() {
    // JSONDecoder checks a number or string only when it is decoded; the catalog decodes them all.
    let text = """
      { "_unknown" : { "deep" : [ - ] }, "products" : [], "version" : { "major" : 4, "minor" : 0 } }
      """
    let issues = CatalogTestFiles.issues(text)
    XCTAssertEqual(issues.count, 1)
    XCTAssertEqual(issues.first?.line, 1)
    XCTAssertTrue(issues.first?.message.hasPrefix("malformed JSON") == true, "\(issues)")
  }

  /// Decodes on a thread with the 512 KB stack of a secondary thread, where deep recursion crashes.
  /// Under a sanitizer (`scripts/sanitizers` says which) frames are several times larger, so the
  /// thread gets 8× the room; the unsanitized run is the one that proves the depth guard.
  private func decodeOnSmallStack(_ data: Data) throws -> Result<Catalog, CatalogLoadError> {
    let result = Locked<Result<Catalog, CatalogLoadError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let outcome = Result { () throws(CatalogLoadError) -> Catalog in try CatalogDecoder().decode(data, path: "deep.storekit") }
      result.withLock { $0 = outcome }
      done.signal()
    }
    let sanitized = ProcessInfo.processInfo.environment["STOREFRONT_SANITIZER"] != nil
    thread.stackSize = 512 * 1024 * (sanitized ? 8 : 1)
    thread.start()
    XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    return try XCTUnwrap(result.withLock { $0 })
  }

  private func nested(_ depth: Int) -> Data {
    Data(("{ \"_x\" : " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      + ", \"products\" : [], \"version\" : { \"major\" : 4, \"minor\" : 0 } }").utf8)
  }

  func testDeeplyNestedUnreadMembersDecodeWithoutExhaustingTheStack() throws {
    let catalog = try decodeOnSmallStack(nested(500)).get()
    XCTAssertEqual(catalog.products, [])
  }

  func testNestingBeyondFoundationsLimitIsAnErrorNotACrash() throws {
    guard case .failure(.issues(let issues)) = try decodeOnSmallStack(nested(600)) else {
      return XCTFail("600 levels of nesting decoded")
    }
    XCTAssertEqual(issues.count, 1)
    XCTAssertTrue(issues.first?.message.hasPrefix("malformed JSON") == true, "\(issues)")
  }
}
