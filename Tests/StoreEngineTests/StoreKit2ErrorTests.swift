import Foundation
import StoreEngine
import XCTest

/// B6: `fail API ERROR` accepts StoreKit 2's `StoreKitError` and `Product.PurchaseError` names and
/// maps each to the `SKError` code a StoreKit 1 app sees.
final class StoreKit2ErrorTests: XCTestCase {
  func testB6EveryStoreKit2NameParsesToItsStoreKit1Code() throws {
    let expected: [String: Int] = [
      "unknown": 0, "userCancelled": 2, "networkError": 7, "systemError": 0, "notAvailableInStorefront": 5,
      "notEntitled": 1, "unsupported": 19, "invalidQuantity": 3, "productUnavailable": 5, "purchaseNotAllowed": 4,
      "ineligibleForOffer": 18, "invalidOfferIdentifier": 11, "invalidOfferPrice": 14, "invalidOfferSignature": 12,
      "missingOfferParameters": 13,
    ]
    XCTAssertEqual(Set(StoreKit2Error.all.map(\.name)), Set(expected.keys))
    for (name, code) in expected {
      let error = try XCTUnwrap(StoreKitError(parsing: name), name)
      XCTAssertEqual(error.code, code, name)
      XCTAssertEqual(error.domain, StoreKitError.skErrorDomain, name)
      XCTAssertEqual(StoreKit2Error(for: error).name, name, name)
    }
  }

  func testB6StoreKit1NamesStayStoreKit1AndMatchTheirStoreKit2Twin() throws {
    let cancelled = try XCTUnwrap(StoreKitError(parsing: "paymentCancelled"))
    XCTAssertNil(cancelled.storeKit2Name)
    let simulated = try XCTUnwrap(StoreKitError(parsing: "userCancelled"))
    XCTAssertEqual(simulated.storeKit2Name, "userCancelled")
    XCTAssertTrue(simulated.matches(cancelled), "expect error … paymentCancelled holds for a simulated userCancelled")
    XCTAssertFalse(cancelled.matches(simulated), "expect error … userCancelled does not hold for the user's Cancel")
    XCTAssertEqual(StoreKitError(parsing: "unknown")?.storeKit2Name, nil, "a name both have is read as StoreKit 1's")
    XCTAssertNil(StoreKitError(parsing: "noSuchError"))
    XCTAssertEqual(simulated.description, "paymentCancelled (SKErrorDomain 2, StoreKit 2 userCancelled)")
  }

  func testB6TheStoreKit2NameSurvivesTheLedgerAndOldRowsStillDecode() throws {
    let simulated = try XCTUnwrap(StoreKitError(parsing: "networkError"))
    let data = try JSONEncoder().encode(simulated)
    XCTAssertEqual(try JSONDecoder().decode(StoreKitError.self, from: data), simulated)
    let old = try JSONDecoder().decode(StoreKitError.self, from: Data(#"{"code":7,"domain":"SKErrorDomain"}"#.utf8))
    XCTAssertEqual(old, StoreKitError(code: 7))
    XCTAssertEqual(String(decoding: try JSONEncoder().encode(StoreKitError.paymentCancelled), as: UTF8.self).contains("storeKit2Name"), false)
  }
}
