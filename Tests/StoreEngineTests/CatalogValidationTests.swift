import Foundation
import XCTest

@testable import StoreEngine

/// Every validation error, with its exact line and column, and all errors of a file at once.
final class CatalogValidationTests: XCTestCase {
  private func located(_ issues: [CatalogIssue]) -> [String] { issues.map(\.located) }

  func testAllProblemsInAFileAreReportedInFileOrder() throws {
    let url = CatalogTestFiles.fixture("invalid-many-problems.storekit")
    XCTAssertThrowsError(try CatalogLoader.load(path: url.path)) { error in
      guard case .issues(let issues) = error as? CatalogLoadError else { return XCTFail("\(error)") }
      XCTAssertEqual(located(issues), [
        "\(url.path):4:24: products[0].displayPrice: '1,999' is not a price: its comma could separate decimals or group thousands",
        "\(url.path):13:21: products[1].productID: duplicate product ID 'dup.id' (first at line 8)",
        "\(url.path):14:16: products[1].type: unknown product type 'Consumabel'",
        "\(url.path):16:5: products[2]: missing required field 'productID'",
        "\(url.path):34:43: subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod: 'P1Month' is not an ISO 8601 subscription period",
      ])
      XCTAssertTrue(issues[2].hint.contains("did you mean 'Consumable'?"), issues[2].hint)
      XCTAssertTrue(issues.allSatisfy { !$0.hint.isEmpty })
    }
  }

  func testEmptyFile() {
    XCTAssertEqual(located(CatalogTestFiles.issues("")), ["test.storekit:1:1: the file is empty"])
    XCTAssertEqual(located(CatalogTestFiles.issues("  \n\n")), ["test.storekit:1:1: the file is empty"])
  }

  func testTruncatedFilePointsAtTheEndAndTheUnclosedBracket() throws {
    let url = CatalogTestFiles.fixture("truncated.storekit")
    XCTAssertThrowsError(try CatalogLoader.load(path: url.path)) { error in
      guard case .issues(let issues) = error as? CatalogLoadError else { return XCTFail("\(error)") }
      XCTAssertEqual(located(issues), [
        "\(url.path):30:1: malformed JSON: the file ends before the JSON is complete: the '{' opened at line 26, column 5 is never closed"
      ])
      XCTAssertTrue(issues[0].hint.contains("truncated"))
    }
    XCTAssertEqual(located(CatalogTestFiles.issues("{\n  \"identifier\" : \"AB")), [
      "test.storekit:2:18: malformed JSON: this string never ends: the file stops inside it"
    ])
  }

  func testInvalidUTF8PointsAtTheFirstBadByte() throws {
    let url = CatalogTestFiles.fixture("latin1.storekit")
    XCTAssertThrowsError(try CatalogLoader.load(path: url.path)) { error in
      guard case .issues(let issues) = error as? CatalogLoadError else { return XCTFail("\(error)") }
      XCTAssertEqual(located(issues), ["\(url.path):8:31: invalid UTF-8: byte 0xE9 cannot start or continue a character"])
    }
    // Columns count characters, not bytes: "é" before the bad byte is one column.
    var bytes = Array("{\n \"é\" : \"".utf8)
    bytes += [0xC3, 0x28, UInt8(ascii: "\""), UInt8(ascii: "}")]
    XCTAssertEqual(located(CatalogTestFiles.issues(Data(bytes))), [
      "test.storekit:2:9: invalid UTF-8: byte 0xC3 cannot start or continue a character"
    ])
  }

  func testMalformedJSONIsLocated() {
    let cases: [(String, String)] = [
      ("{\n  \"a\" : 1\n  \"b\" : 2\n}", "test.storekit:2:10: malformed JSON: missing ',' between two members"),
      ("[\n  1\n  2\n]", "test.storekit:2:4: malformed JSON: missing ',' between two elements"),
      ("{\n  \"a\" 1\n}", "test.storekit:2:6: malformed JSON: missing ':' after the key"),
      ("{\n  \"a\" : tru\n}", "test.storekit:2:9: malformed JSON: 'tru' is not a JSON value"),
      ("{\n  \"a\" : [1, 2}\n}", "test.storekit:2:14: malformed JSON: '}' does not match the '[' opened at line 2, column 9"),
      ("{ \"a\" : 1 }\n}", "test.storekit:2:1: malformed JSON: unexpected '}' after the end of the JSON document"),
      ("{ \"a\" : \"x\ny\" }", "test.storekit:1:11: malformed JSON: the string that starts at column 9 has no closing '\"' before the end of the line"),
      ("{ a : 1 }", "test.storekit:1:3: malformed JSON: expected a quoted key"),
      ("{ \"a\" : 1,, }", "test.storekit:1:11: malformed JSON: unexpected ','"),
    ]
    for (text, expected) in cases {
      XCTAssertEqual(located(CatalogTestFiles.issues(text)), [expected], text)
    }
  }

  func testSharedSampleWithOneCommaDeleted() throws {
    let sample = CatalogTestFiles.sharedSamples.appendingPathComponent(
      "apple-food-truck_v2.0_arabic_nonconsumable_codeoffers_intro-offers.storekit")
    try XCTSkipUnless(FileManager.default.fileExists(atPath: sample.path))
    var text = try String(contentsOf: sample, encoding: .utf8)
    let comma = try XCTUnwrap(text.range(of: "\"displayPrice\" : \"4.99\","))
    text.replaceSubrange(comma, with: "\"displayPrice\" : \"4.99\"")
    let lineNumber = text[..<comma.lowerBound].filter { $0 == "\n" }.count + 1
    let issues = CatalogTestFiles.issues(text)
    XCTAssertEqual(located(issues), ["test.storekit:\(lineNumber):34: malformed JSON: missing ',' between two members"])
    XCTAssertEqual(lineNumber, 60)
  }

  func testDuplicateIDsAcrossProductsNonRenewingAndSubscriptions() {
    let text = """
      {
        "nonRenewingSubscriptions" : [ { "displayPrice" : "1", "productID" : "x", "type" : "NonRenewingSubscription" } ],
        "products" : [ { "displayPrice" : "1", "productID" : "x", "type" : "Consumable" } ],
        "subscriptionGroups" : [ { "id" : "G", "name" : "G", "subscriptions" : [
          { "displayPrice" : "1", "groupNumber" : 1, "productID" : "x", "recurringSubscriptionPeriod" : "P1M", "type" : "RecurringSubscription" } ] } ],
        "version" : { "major" : 4, "minor" : 0 }
      }
      """
    // products are walked first, so the entries in nonRenewingSubscriptions and the group are the
    // duplicates, each naming the first one's line.
    XCTAssertEqual(located(CatalogTestFiles.issues(text)), [
      "test.storekit:2:72: nonRenewingSubscriptions[0].productID: duplicate product ID 'x' (first at line 3)",
      "test.storekit:5:62: subscriptionGroups[0].subscriptions[0].productID: duplicate product ID 'x' (first at line 3)",
    ])
  }

  func testMissingRequiredFieldsPointAtTheObject() {
    let text = """
      {
        "products" : [
          { "productID" : "a" }
        ],
        "subscriptionGroups" : [ { "id" : "G", "name" : "G", "subscriptions" : [
          { "displayPrice" : "1", "productID" : "s", "type" : "RecurringSubscription" } ] } ]
      }
      """
    XCTAssertEqual(located(CatalogTestFiles.issues(text)), [
      "test.storekit:1:1: missing required field 'version'",
      "test.storekit:3:5: products[0]: missing required field 'type'",
      "test.storekit:3:5: products[0]: missing required field 'displayPrice'",
      "test.storekit:6:5: subscriptionGroups[0].subscriptions[0]: missing required field 'groupNumber'",
      "test.storekit:6:5: subscriptionGroups[0].subscriptions[0]: missing required field 'recurringSubscriptionPeriod'",
    ])
  }

  func testUnknownTypesPricesPeriodsAndModes() {
    let text = """
      {
        "products" : [
          { "displayPrice" : "$0.99", "productID" : "a", "type" : "Subscription" },
          { "displayPrice" : 0.99, "productID" : "b", "type" : "RecurringSubscription" }
        ],
        "subscriptionGroups" : [ { "id" : "G", "name" : "G", "subscriptions" : [
          { "displayPrice" : "1", "groupNumber" : 1, "productID" : "s", "recurringSubscriptionPeriod" : "1 month",
            "introductoryOffer" : { "paymentMode" : "freeTrial", "subscriptionPeriod" : "P0W" },
            "type" : "RecurringSubscription" } ] } ],
        "version" : { "major" : 9, "minor" : 0 }
      }
      """
    let issues = CatalogTestFiles.issues(text)
    XCTAssertEqual(located(issues), [
      "test.storekit:3:24: products[0].displayPrice: '$0.99' is not a price",
      "test.storekit:3:61: products[0].type: unknown product type 'Subscription'",
      "test.storekit:4:24: products[1].displayPrice: price must be a string, not 0.99",
      "test.storekit:4:58: products[1].type: type 'RecurringSubscription' does not belong in products",
      "test.storekit:7:99: subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod: '1 month' is not an ISO 8601 subscription period",
      "test.storekit:8:47: subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode: unknown payment mode 'freeTrial'",
      "test.storekit:8:83: subscriptionGroups[0].subscriptions[0].introductoryOffer.subscriptionPeriod: 'P0W' is not an ISO 8601 subscription period",
      "test.storekit:10:15: version: format version 9.0 is not supported; this storefront reads formats 1.0 through 6.x",
    ])
    XCTAssertTrue(issues[3].hint.contains("subscriptionGroups[].subscriptions"), issues[3].hint)
    XCTAssertTrue(issues[5].hint.contains("free, payAsYouGo, payUpFront"), issues[5].hint)
  }

  func testAutoRenewableHintPointsToASubscriptionGroup() {
    let issues = CatalogTestFiles.issues("""
      {
        "products" : [ { "displayPrice" : "0.99", "productID" : "a", "type" : "AutoRenewableSubscription" } ],
        "nonRenewingSubscriptions" : [ { "displayPrice" : "0.99", "productID" : "b", "type" : "Auto-Renewable Subscription" } ],
        "subscriptionGroups" : [ { "id" : "G", "name" : "G", "subscriptions" : [
          { "displayPrice" : "1", "groupNumber" : 1, "productID" : "s", "recurringSubscriptionPeriod" : "P1M", "type" : "AutoRenewableSubscription" } ] } ],
        "version" : { "major" : 4, "minor" : 0 }
      }
      """)
    XCTAssertEqual(located(issues), [
      "test.storekit:2:73: products[0].type: unknown product type 'AutoRenewableSubscription'; auto-renewable subscriptions do not belong in products",
      "test.storekit:3:89: nonRenewingSubscriptions[0].type: unknown product type 'Auto-Renewable Subscription'; auto-renewable subscriptions do not belong in nonRenewingSubscriptions",
      "test.storekit:5:115: subscriptionGroups[0].subscriptions[0].type: unknown product type 'AutoRenewableSubscription'",
    ])
    // Not the nearest spelling (NonRenewingSubscription, the opposite kind) but where they belong.
    XCTAssertTrue(issues[0].hint.hasPrefix("auto-renewable subscriptions belong in a subscription group: move this product to subscriptionGroups[].subscriptions[] with \"type\" : \"RecurringSubscription\""), issues[0].hint)
    XCTAssertFalse(issues[0].hint.contains("did you mean"), issues[0].hint)
    XCTAssertEqual(issues[2].hint, "an auto-renewable subscription's type is \"RecurringSubscription\"")
  }

  func testSettingsProblems() {
    let text = """
      {
        "settings" : { "_storefront" : "KRO", "_askToBuyEnabled" : "yes", "_timeRate" : 1.5,
          "_storeKitErrors" : [ { "current" : 4, "enabled" : false, "name" : "Purchase" } ] },
        "version" : { "major" : 4, "minor" : 0 }
      }
      """
    let issues = CatalogTestFiles.issues(text)
    XCTAssertEqual(located(issues), [
      "test.storekit:2:34: settings._storefront: unknown storefront 'KRO'",
      "test.storekit:2:62: settings._askToBuyEnabled: must be true or false, not a string",
      "test.storekit:2:83: settings._timeRate: must be a whole number, not the number 1.5",
      "test.storekit:3:41: settings._storeKitErrors[0].current: must be null or an object like { \"index\" : 4, \"type\" : \"generic\" }, not the number 4",
    ])
    XCTAssertTrue(issues[0].hint.hasPrefix("did you mean 'KOR'?"), issues[0].hint)
  }

  func testWrongContainerTypes() {
    XCTAssertEqual(located(CatalogTestFiles.issues("[]")), [
      "test.storekit:1:1: the top level must be a JSON object ({ … }), not an array"
    ])
    XCTAssertEqual(located(CatalogTestFiles.issues("{ \"products\" : {}, \"version\" : { \"major\" : 1, \"minor\" : 0 } }")), [
      "test.storekit:1:16: products: must be an array of products, not an object"
    ])
  }

  func testIssueDescriptionCarriesTheHintOnItsOwnLine() {
    let issue = CatalogIssue(path: "a.storekit", line: 3, column: 7, message: "bad", hint: "fix it")
    XCTAssertEqual(issue.description, "a.storekit:3:7: bad\n  hint: fix it")
  }

  func testLoaderErrorsForMissingFilesAndDirectories() throws {
    XCTAssertThrowsError(try CatalogLoader.load(path: "/nonexistent/Store.storekit")) { error in
      XCTAssertEqual(error as? CatalogLoadError, .fileNotFound(path: "/nonexistent/Store.storekit"))
    }
    let fixtures = CatalogTestFiles.fixture("").path
    XCTAssertThrowsError(try CatalogLoader.load(path: fixtures)) { error in
      XCTAssertEqual(error as? CatalogLoadError, .isDirectory(path: fixtures))
    }
  }
}
