import Foundation
import StoreEngine
import StorefrontTestSupport
import Testing

/// How the cancel sheet follows the developer's realtime answer, and falls back to the default
/// message (nothing applied) whenever the answer is not one Apple would use.
struct RetentionDecisionTests {
  static let approved = "0b0f6c7e-93a4-4d4e-8f3e-1f0d2c9b7a10"
  static let pending = "5e1b7c2d-4a3f-4b8e-9c6d-7e8f9a0b1c2d"
  static let fallbackID = "8d3c2a8e-2b9c-4c1e-9d55-5d8e9a1f0c01"

  static let configuration = RetentionMessaging(
    messages: [
      approved: .init(state: .approved, header: "Stay", body: "Half price for 3 months."),
      pending: .init(state: .pending, header: "Not yet", body: "In review."),
      fallbackID: .init(state: .approved, header: "Before you go", body: "The default."),
    ],
    defaults: [RetentionMessaging.defaultKey(productID: FixtureCatalog.monthly.rawValue, locale: "en-US"): fallbackID])

  static let fallback = RetentionSheet.message(id: fallbackID, configuration.messages[fallbackID] ?? .init(state: .pending, header: "", body: ""))

  private func decide(_ answer: RetentionAnswer?, locale: String = "en-US") -> RetentionDecision {
    RetentionDecision.decide(
      answer: answer, configuration: Self.configuration, catalog: FixtureCatalog.make(), productID: FixtureCatalog.monthly,
      locale: locale)
  }

  private func ok(_ json: String) -> RetentionAnswer { .answered(status: 200, body: Data(json.utf8)) }

  /// A compact JWS whose payload names `offer` (the signature is the store's to check at purchase).
  private func offerJWS(_ offer: String) -> String {
    func encode(_ text: String) -> String {
      Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    let claims = #"{"offerIdentifier":"\#(offer)","nonce":"4f3c2a8e-2b9c-4c1e-9d55-5d8e9a1f0c01","iat":1700000000}"#
    return encode(#"{"alg":"ES256","kid":"KEY"}"#) + "." + encode(claims) + "."
      + Data((0..<64).map { UInt8($0 + 0x70) }).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  @Test func withoutARealtimeURLTheDefaultShowsAndWithoutADefaultThePlainSheet() {
    #expect(decide(nil) == RetentionDecision(sheet: Self.fallback))
    #expect(decide(nil, locale: "fr-FR") == RetentionDecision(sheet: .plain))
  }

  @Test func theEndpointsValidChoicesAreShown() throws {
    let message = decide(ok(#"{"message":{"messageIdentifier":"\#(Self.approved.uppercased())"}}"#))
    #expect(message.fallbackReason == nil)
    #expect(message.sheet.kind == "message")
    let alternate = decide(ok(#"{"alternateProduct":{"productId":"\#(FixtureCatalog.yearly)"}}"#))
    #expect(alternate == RetentionDecision(sheet: .alternateProduct(FixtureCatalog.yearly, messageID: nil, message: nil)))
    let v2 = decide(ok(#"{"promotionalOffer":{"promotionalOfferSignatureV2":"\#(offerJWS("winback50"))"}}"#))
    #expect(v2.sheet.kind == "offer")
    guard case .promotionalOffer(let offer, _, _) = v2.sheet, let discount = offer.payment(for: FixtureCatalog.monthly)?.discount else {
      Issue.record("expected a V2 offer that can be bought, got \(v2)")
      return
    }
    // The JWS's r || s (first bytes 0x70…, high bit clear; s from 0x90…, high bit set) as DER.
    let der = try #require(Data(base64Encoded: discount.signature))
    #expect(der.prefix(4) == Data([0x30, 0x45, 0x02, 0x20]) && der[36] == 0x02 && der[37] == 0x21 && der[38] == 0x00)
    #expect(discount.request?.offerIdentifier == "winback50" && discount.timestamp == 1_700_000_000_000)
    let v1 = decide(ok(#"""
      {"promotionalOffer":{"messageIdentifier":"\#(Self.approved)","promotionalOfferSignatureV1":{"encodedSignature":"MEUC",
      "productId":"\#(FixtureCatalog.monthly)","nonce":"4f3c2a8e-2b9c-4c1e-9d55-5d8e9a1f0c01","timestamp":1700000000000,
      "keyId":"KEY","offerIdentifier":"winback50"}}}
      """#))
    guard case .promotionalOffer(.signatureV1(let discount, _), let id, _) = v1.sheet else {
      Issue.record("expected a V1 offer, got \(v1)")
      return
    }
    #expect(discount.identifier == "winback50" && discount.timestamp == 1_700_000_000_000 && id == Self.approved)
  }

  @Test(arguments: [
    ("a time-out", RetentionAnswer.failed("TIMED_OUT"), "TIMED_OUT"),
    ("a 500", .answered(status: 500, body: Data()), "HTTP 500"),
    ("junk", .answered(status: 200, body: Data("<html>".utf8)), "not a JSON object"),
    ("nothing chosen", .answered(status: 200, body: Data("{}".utf8)), "not one"),
    ("two choices", .answered(status: 200, body: Data(#"{"message":{"messageIdentifier":"\#(approved)"},"alternateProduct":{"productId":"com.example.premium.yearly"}}"#.utf8)), "not one"),
    ("an unknown message", .answered(status: 200, body: Data(#"{"message":{"messageIdentifier":"11111111-2222-4333-8444-555555555555"}}"#.utf8)), "not an approved message"),
    ("a message in review", .answered(status: 200, body: Data(#"{"message":{"messageIdentifier":"\#(pending)"}}"#.utf8)), "not an approved message"),
    ("a message id that is no UUID", .answered(status: 200, body: Data(#"{"message":{"messageIdentifier":"hello"}}"#.utf8)), "not a UUID"),
    ("another group's product", .answered(status: 200, body: Data(#"{"alternateProduct":{"productId":"com.example.coins100"}}"#.utf8)), "same group"),
    ("the same product", .answered(status: 200, body: Data(#"{"alternateProduct":{"productId":"com.example.premium.monthly"}}"#.utf8)), "same group"),
    ("an unknown product", .answered(status: 200, body: Data(#"{"alternateProduct":{"productId":"nope"}}"#.utf8)), "same group"),
    ("an offer without a signature", .answered(status: 200, body: Data(#"{"promotionalOffer":{}}"#.utf8)), "no signature"),
    ("a V2 offer that is no JWS", .answered(status: 200, body: Data(#"{"promotionalOffer":{"promotionalOfferSignatureV2":"x"}}"#.utf8)), "not a signed offer"),
  ])
  func badAnswersFallBackToTheDefault(_ name: String, _ answer: RetentionAnswer, _ reason: String) {
    let decision = decide(answer)
    #expect(decision.sheet == Self.fallback, "\(name)")
    #expect(decision.fallbackReason?.contains(reason) == true, "\(name): \(decision.fallbackReason ?? "nil")")
  }

  @Test func anOfferTheProductDoesNotHaveFallsBack() {
    let decision = decide(ok(#"{"promotionalOffer":{"promotionalOfferSignatureV2":"\#(offerJWS("other"))"}}"#))
    #expect(decision.sheet == Self.fallback)
    #expect(decision.fallbackReason == "'other' is not a promotional offer of the product")
  }

  @Test func theLedgerKeepsWhatEachWriterChanged() throws {
    let ledger = InMemoryLedgerStore()
    let store = RetentionMessagingStore(ledger: ledger)
    #expect(store.read() == RetentionMessaging())
    try store.update { $0.realtimeURLs["Sandbox"] = "http://127.0.0.1:1/" }
    try RetentionMessagingStore(ledger: ledger).update { $0.messages[Self.approved] = Self.configuration.messages[Self.approved] }
    #expect(store.read().realtimeURLs == ["Sandbox": "http://127.0.0.1:1/"])
    #expect(store.read().messages.count == 1)
  }
}
