import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// What the App Store's side starts: purchase intents, and messages when the engine has one.
final class StoreKit2MessageAndIntentTests: StoreKitTestCase {
  func testAPurchaseStartedOnTheAppStoreArrivesAsAnIntent() async throws {
    var intents = PurchaseIntent.intents.makeAsyncIterator()
    try StoreKitEnvironment.shared.startPurchaseIntent(productID: IDs.yearly, offerID: "\(IDs.yearly).comeback")
    let intent = await intents.next()
    XCTAssertEqual(intent?.id, IDs.yearly)
    XCTAssertEqual(intent?.product.id, IDs.yearly)
    XCTAssertEqual(intent?.offer?.type, .promotional)
    let plain = PurchaseIntent.intents
    try StoreKitEnvironment.shared.startPurchaseIntent(productID: IDs.shopping)
    var iterator = plain.makeAsyncIterator()
    let second = await iterator.next()
    XCTAssertEqual(second?.product.id, IDs.shopping)
    XCTAssertNil(second?.offer)
    XCTAssertThrowsError(try StoreKitEnvironment.shared.startPurchaseIntent(productID: "com.example.unknown"))
    XCTAssertThrowsError(try StoreKitEnvironment.shared.startPurchaseIntent(productID: IDs.yearly, offerID: "nope"))
  }

  func testAPriceIncreaseBringsAConsentMessage() async throws {
    guard case .success(let bought) = try await Product.products(for: [IDs.monthly]).first?.purchase() else { return XCTFail() }
    await bought.unsafePayloadValue.finish()
    var messages = Message.messages.makeAsyncIterator()
    try session.requestPriceIncreaseConsentForTransaction(identifier: UInt(bought.unsafePayloadValue.id))
    let message = await messages.next()
    XCTAssertEqual(message?.reason, .priceIncreaseConsent)
    XCTAssertEqual(message?.reason.localizedDescription, Message.Reason.priceIncreaseConsent.localizedDescription)
    // Answered, the increase brings no other message: the next one is the lapse's, not a consent.
    try session.consentToPriceIncreaseForTransaction(identifier: UInt(bought.unsafePayloadValue.id))
    let status = await bought.unsafePayloadValue.subscriptionStatus
    XCTAssertEqual(status?.renewalInfo.unsafePayloadValue.priceIncreaseStatus, .agreed)
  }

  func testAFailedRenewalBringsABillingIssueMessage() async throws {
    session.timeRate = .monthlyRenewalEveryThirtySeconds
    session.shouldEnterBillingRetryOnRenewal = true
    guard case .success(let bought) = try await Product.products(for: [IDs.monthly]).first?.purchase() else { return XCTFail() }
    await bought.unsafePayloadValue.finish()
    var messages = Message.messages.makeAsyncIterator()
    try session.advance(by: 31)
    let message = await messages.next()
    XCTAssertEqual(message?.reason, .billingIssue)
    let status = await bought.unsafePayloadValue.subscriptionStatus
    XCTAssertEqual(status?.state, .inBillingRetryPeriod)
  }

  /// Each session is a fresh store whose transaction ids start over: a second session's price increase
  /// brings its message as the first one's did.
  func testANewSessionsPriceIncreaseBringsItsOwnMessage() async throws {
    for _ in 0..<2 {
      session = try SKTestSession(contentsOf: Self.catalogURL)
      session.disableDialogs = true
      let products = try await Product.products(for: [IDs.monthly])
      guard case .success(let bought) = try await XCTUnwrap(products.first).purchase() else { return XCTFail("no purchase") }
      await bought.unsafePayloadValue.finish()
      let heard = expectation(description: "a price-increase message")
      let messages = Message.messages  // made before the action it should hear
      let listener = Task {
        for await message in messages where message.reason == .priceIncreaseConsent {
          heard.fulfill()
          return
        }
      }
      try session.requestPriceIncreaseConsentForTransaction(identifier: UInt(bought.unsafePayloadValue.id))
      await fulfillment(of: [heard], timeout: 10)
      listener.cancel()
    }
  }

  func testMessageReasonsAreApples() {
    XCTAssertEqual(Message.Reason.generic.rawValue, 0)
    XCTAssertNotEqual(Message.Reason.billingIssue, .winBackOffer)
  }
}
