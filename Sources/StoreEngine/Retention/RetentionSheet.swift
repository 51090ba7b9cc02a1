import Foundation

/// What the developer's Get Retention Message endpoint did with one realtime request.
public enum RetentionAnswer: Sendable, Equatable {
  /// It answered: the HTTP status and the body.
  case answered(status: Int, body: Data)
  /// It did not answer in time or at all: Apple's `SendAttemptResult` name (`TIMED_OUT`, `NO_RESPONSE`, …).
  case failed(String)
}

/// What the cancel sheet shows beside "Cancel Subscription", decided from the realtime answer.
///
/// Apple shows what the endpoint chose when the answer is valid, and otherwise the default message
/// configured for the product and locale (or none): a time-out, a non-200 status, a body that is not
/// a `RealtimeResponseBody` with exactly one of `message`, `alternateProduct` and `promotionalOffer`,
/// a message identifier that is not an approved message, an alternate product that is not another
/// subscription of the same group, or an offer the product does not have. A fallback applies nothing.
public enum RetentionSheet: Sendable, Equatable {
  /// The plain cancel sheet: no realtime answer used and no default message.
  case plain
  /// A message (the endpoint's, or the default).
  case message(id: String, RetentionMessaging.Message)
  /// Switch to another subscription of the same group, with an optional message.
  case alternateProduct(Product.ID, messageID: String?, message: RetentionMessaging.Message?)
  /// A promotional offer of the product, with an optional message.
  case promotionalOffer(RetentionOffer, messageID: String?, message: RetentionMessaging.Message?)
}

extension RetentionSheet {
  /// The word a scenario's `expect retention-sheet` compares: `plain`, `message`, `alternate`, `offer`.
  public var kind: String {
    switch self {
    case .plain: "plain"
    case .message: "message"
    case .alternateProduct: "alternate"
    case .promotionalOffer: "offer"
    }
  }
}

/// A promotional offer from a realtime answer, as signed by the developer's server.
public enum RetentionOffer: Sendable, Equatable {
  /// `promotionalOfferSignatureV2`: a compact JWS (Apple's `PromotionalOfferV2SignatureCreator`).
  case signatureV2(offerIdentifier: String, compactJWS: String)
  /// `promotionalOfferSignatureV1`: the classic signature fields.
  case signatureV1(PaymentDiscount, productID: String)

  /// The offer's identifier.
  public var offerIdentifier: String {
    switch self {
    case .signatureV2(let id, _): id
    case .signatureV1(let discount, _): discount.identifier
    }
  }
}

/// The sheet decided for one cancel flow and, when the endpoint's choice was not used, why.
public struct RetentionDecision: Sendable, Equatable {
  public var sheet: RetentionSheet
  /// Why the default shows instead of the endpoint's answer (nil when it was used, or none was asked).
  public var fallbackReason: String?

  public init(sheet: RetentionSheet, fallbackReason: String? = nil) {
    self.sheet = sheet
    self.fallbackReason = fallbackReason
  }

  /// Decides the sheet of `productID`'s cancel flow in `locale` from `answer` (nil: no realtime URL).
  public static func decide(
    answer: RetentionAnswer?, configuration: RetentionMessaging, catalog: Catalog, productID: Product.ID, locale: String
  ) -> RetentionDecision {
    let fallback: RetentionSheet =
      configuration.defaultMessage(productID: productID.rawValue, locale: locale).map { .message(id: $0.id, $0.message) } ?? .plain
    guard let answer else { return RetentionDecision(sheet: fallback) }
    switch chosen(answer, configuration: configuration, catalog: catalog, productID: productID) {
    case .success(let sheet): return RetentionDecision(sheet: sheet)
    case .failure(let refusal): return RetentionDecision(sheet: fallback, fallbackReason: refusal.reason)
    }
  }

  private struct Refusal: Error { var reason: String }

  private static func chosen(
    _ answer: RetentionAnswer, configuration: RetentionMessaging, catalog: Catalog, productID: Product.ID
  ) -> Result<RetentionSheet, Refusal> {
    let body: Data
    switch answer {
    case .failed(let result): return .failure(Refusal(reason: "the endpoint did not answer (\(result))"))
    case .answered(let status, let data):
      guard status == 200 else { return .failure(Refusal(reason: "the endpoint answered HTTP \(status)")) }
      body = data
    }
    guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
      return .failure(Refusal(reason: "the answer is not a JSON object"))
    }
    let parts = ["message", "alternateProduct", "promotionalOffer"].filter { object[$0] != nil && !(object[$0] is NSNull) }
    guard parts.count == 1, let part = object[parts[0]] as? [String: Any] else {
      return .failure(Refusal(reason: "the answer has \(parts.count) of message, alternateProduct and promotionalOffer, not one"))
    }
    var messageID: String?
    var message: RetentionMessaging.Message?
    if let raw = part["messageIdentifier"] {
      guard let text = raw as? String, UUID(uuidString: text) != nil else {
        return .failure(Refusal(reason: "the messageIdentifier is not a UUID"))
      }
      let id = text.lowercased()
      guard let found = configuration.messages[id], found.state == .approved else {
        return .failure(Refusal(reason: "message '\(id)' is not an approved message"))
      }
      messageID = id
      message = found
    }
    switch parts[0] {
    case "message":
      guard let messageID, let message else { return .failure(Refusal(reason: "the message has no messageIdentifier")) }
      return .success(.message(id: messageID, message))
    case "alternateProduct":
      guard let text = part["productId"] as? String else { return .failure(Refusal(reason: "the alternateProduct has no productId")) }
      let alternate = Product.ID(text)
      guard let group = catalog.product(productID)?.subscription?.groupID, let other = catalog.product(alternate),
        other.subscription?.groupID == group, alternate != productID
      else { return .failure(Refusal(reason: "'\(text)' is not another subscription of the same group")) }
      return .success(.alternateProduct(alternate, messageID: messageID, message: message))
    default:
      let offer: RetentionOffer
      if let jws = part["promotionalOfferSignatureV2"] as? String {
        guard let compact = try? CompactJWS(jws),
          let claims = (try? JSONSerialization.jsonObject(with: compact.payloadData)) as? [String: Any],
          let id = claims["offerIdentifier"] as? String
        else { return .failure(Refusal(reason: "the promotionalOfferSignatureV2 is not a signed offer")) }
        offer = .signatureV2(offerIdentifier: id, compactJWS: jws)
      } else if let v1 = part["promotionalOfferSignatureV1"] as? [String: Any] {
        guard let signature = v1["encodedSignature"] as? String, let product = v1["productId"] as? String,
          let nonce = (v1["nonce"] as? String).flatMap(UUID.init(uuidString:)),
          let timestamp = (v1["timestamp"] as? NSNumber)?.int64Value, let key = v1["keyId"] as? String,
          let id = v1["offerIdentifier"] as? String
        else { return .failure(Refusal(reason: "the promotionalOfferSignatureV1 lacks a field")) }
        offer = .signatureV1(
          PaymentDiscount(identifier: id, keyIdentifier: key, nonce: nonce, signature: signature, timestamp: timestamp),
          productID: product)
      } else {
        return .failure(Refusal(reason: "the promotionalOffer has no signature"))
      }
      guard catalog.product(productID)?.subscription?.promotionalOffers.contains(where: { $0.id == offer.offerIdentifier }) == true
      else { return .failure(Refusal(reason: "'\(offer.offerIdentifier)' is not a promotional offer of the product")) }
      if case .signatureV1(_, let product) = offer, product != productID.rawValue {
        return .failure(Refusal(reason: "the offer is signed for '\(product)'"))
      }
      guard offer.payment(for: productID) != nil else {
        return .failure(Refusal(reason: "the promotionalOfferSignatureV2 lacks a kid, nonce, iat or ES256 signature"))
      }
      return .success(.promotionalOffer(offer, messageID: messageID, message: message))
    }
  }
}
