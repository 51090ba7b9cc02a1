import Foundation
import StoreEngine
import XCTest

/// `SignedPayloads.json` writes a payload's JSON directly where it can; the bytes
/// must be `JSONEncoder`'s (sorted keys, unescaped slashes) for every payload, and base64url must be
/// Foundation's base64 with the URL alphabet and no padding.
final class SignedPayloadJSONTests: XCTestCase {
  private let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// Random field values: plain ones, and with `odd` some that JSON escapes or that are not ASCII.
  private final class Draw {
    var generator: SplitMix64
    var odd = false

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    func next() -> UInt64 { generator.next() }

    func text(plain: Bool = false) -> String {
      let common = ["Sandbox", "com.example/app", "USA", "P1M", "PAY_AS_YOU_GO", "", "2000000000000001", "a b"]
      let strange = ["quote \" inside", "back\\slash", "tab\there", "naïve", "line\nbreak", "emoji 🎉"]
      let pool = odd && !plain ? common + strange : common
      return pool[Int(next() % UInt64(pool.count))]
    }

    func maybe<Value>(_ value: () -> Value) -> Value? { next() % 3 == 0 ? nil : value() }

    func number() -> Int64 { Int64(bitPattern: next()) >> Int64(next() % 64) }
  }

  func testTransactionPayloadsMatchJSONEncoder() throws {
    let draw = Draw(seed: 35)
    for round in 0..<500 {
      draw.odd = round % 5 == 0
      var payload = JWSTransactionPayload(
        transactionId: draw.text(), originalTransactionId: draw.text(plain: true), webOrderLineItemId: draw.maybe { draw.text() },
        bundleId: draw.text(), productId: draw.text(), subscriptionGroupIdentifier: draw.maybe { draw.text() },
        purchaseDate: draw.number(), originalPurchaseDate: draw.number(), expiresDate: draw.maybe { draw.number() },
        quantity: Int(draw.number()), type: draw.text(), appAccountToken: draw.maybe { UUID().uuidString },
        inAppOwnershipType: draw.text(plain: true), signedDate: draw.number(), revocationReason: draw.maybe { Int(draw.number()) },
        revocationDate: draw.maybe { draw.number() }, isUpgraded: draw.maybe { draw.next() % 2 == 0 },
        offerType: draw.maybe { Int(draw.next() % 5) }, offerIdentifier: draw.maybe { draw.text() },
        offerDiscountType: draw.maybe { draw.text() }, offerPeriod: draw.maybe { "P2M" }, environment: draw.text(),
        storefront: draw.text(), storefrontId: draw.text(plain: true), transactionReason: draw.text(), currency: draw.text(),
        price: draw.number(), appTransactionId: draw.maybe { "704289572198250000" }, revocationType: draw.maybe { "REFUND_FULL" },
        revocationPercentage: draw.maybe { 100_000 })
      payload.billingPlanType = draw.maybe { "MONTHLY" }
      let written = try SignedPayloads.json(payload)
      XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: try encoder.encode(payload), as: UTF8.self))
    }
  }

  func testRenewalInfoPayloadsMatchJSONEncoder() throws {
    let draw = Draw(seed: 36)
    for round in 0..<500 {
      draw.odd = round % 5 == 0
      let payload = JWSRenewalInfoPayload(
        originalTransactionId: draw.text(plain: true), autoRenewProductId: draw.text(), productId: draw.text(),
        autoRenewStatus: Int(draw.next() % 2), expirationIntent: draw.maybe { Int(draw.next() % 6) },
        isInBillingRetryPeriod: draw.next() % 2 == 0, priceIncreaseStatus: draw.maybe { Int(draw.next() % 2) },
        gracePeriodExpiresDate: draw.maybe { draw.number() }, offerType: draw.maybe { Int(draw.next() % 5) },
        offerIdentifier: draw.maybe { draw.text() }, offerDiscountType: draw.maybe { "FREE_TRIAL" }, signedDate: draw.number(),
        environment: draw.text(), recentSubscriptionStartDate: draw.number(), renewalDate: draw.number(), currency: draw.text(),
        renewalPrice: draw.number(), appAccountToken: draw.maybe { UUID().uuidString.lowercased() },
        eligibleWinBackOfferIds: draw.maybe { (0..<Int(draw.next() % 3)).map { _ in draw.text() } }, offerPeriod: draw.maybe { "P1W" })
      let written = try SignedPayloads.json(payload)
      XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: try encoder.encode(payload), as: UTF8.self))
    }
  }

  func testBase64URLMatchesFoundation() {
    var generator = SplitMix64(seed: 37)
    for length in 0..<200 {
      let data = Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
      let expected = data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
      XCTAssertEqual(data.base64URLEncoded, expected)
      var text = Array(expected.utf8)
      XCTAssertEqual(text.withUnsafeBufferPointer { Base64URL.decode($0) }, Array(data))
      text = Array(data.base64EncodedString().utf8)
      XCTAssertEqual(text.withUnsafeBufferPointer { Base64URL.decode($0) }, Array(data), "standard base64, padded")
    }
    for bad in ["a", "ab=c", "a*bc", "abcde", "ab==="] {
      XCTAssertNil(Array(bad.utf8).withUnsafeBufferPointer { Base64URL.decode($0) }, bad)
    }
  }
}
