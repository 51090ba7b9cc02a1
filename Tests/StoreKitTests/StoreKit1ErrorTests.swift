import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// `SKError` bridges as Swift imports Apple's: pattern matching on any `Error`, the `NSError` round
/// trip, and the text of the errors the store makes.
final class StoreKit1ErrorTests: StoreKitTestCase {
  private func thrown(_ error: any Error) throws { throw error }

  func testCatchMatchesTheCodeOnAnyError() {
    var caught = ""
    do {
      try thrown(NSError(domain: SKErrorDomain, code: SKError.Code.paymentCancelled.rawValue))
    } catch SKError.paymentCancelled {
      caught = "cancelled"
    } catch {
      caught = "other \(error)"
    }
    XCTAssertEqual(caught, "cancelled")
  }

  func testCasePatternsMatchOnlyTheirCodeAndDomain() {
    func name(_ error: any Error) -> String {
      switch error {
      case SKError.paymentCancelled: "cancelled"
      case SKError.storeProductNotAvailable: "not available"
      default: "other"
      }
    }
    XCTAssertEqual(name(SKError(.paymentCancelled)), "cancelled")
    XCTAssertEqual(name(SKError(.storeProductNotAvailable, userInfo: ["k": 1])), "not available")
    XCTAssertEqual(name(SKError(.paymentInvalid)), "other")
    XCTAssertEqual(name(NSError(domain: "OtherDomain", code: SKError.Code.paymentCancelled.rawValue)), "other")
    XCTAssertEqual(name(CocoaError(.fileNoSuchFile)), "other")
  }

  func testNSErrorRoundTripKeepsDomainCodeAndUserInfo() throws {
    let made = SKError(.paymentInvalid, userInfo: [NSLocalizedDescriptionKey: "bad payment", "extra": "x"])
    let bridged = made as NSError
    XCTAssertEqual(bridged.domain, SKErrorDomain)
    XCTAssertEqual(bridged.code, 3)
    XCTAssertEqual(bridged.userInfo["extra"] as? String, "x")
    XCTAssertEqual(made.userInfo["extra"] as? String, "x")
    XCTAssertEqual(made.localizedDescription, "bad payment")
    let back = SKError(_nsError: bridged)
    XCTAssertEqual(back.code, .paymentInvalid)
    XCTAssertEqual(back.errorCode, 3)
    XCTAssertEqual(SKError.errorDomain, "SKErrorDomain")
    XCTAssertEqual(back, made)
    XCTAssertNotEqual(back, SKError(.paymentInvalid))
  }

  func testAStoreErrorCarriesStoreKitsTextAndBridgesToSKError() throws {
    session.legacy.failureError = .paymentNotAllowed
    session.legacy.failTransactionsEnabled = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    let error = try XCTUnwrap(observer.transactions.last?.error)
    XCTAssertEqual(error.localizedDescription, "This device is not allowed to make the payment.")
    let skError = try XCTUnwrap(error as? SKError)
    XCTAssertEqual(skError.code, .paymentNotAllowed)
    XCTAssertEqual(skError.userInfo[NSLocalizedDescriptionKey] as? String, "This device is not allowed to make the payment.")
    let nsError = error as NSError
    XCTAssertEqual(SKError(_nsError: nsError).code, .paymentNotAllowed)
    var matched = false
    if case SKError.paymentNotAllowed = error { matched = true }
    XCTAssertTrue(matched)
  }
}
