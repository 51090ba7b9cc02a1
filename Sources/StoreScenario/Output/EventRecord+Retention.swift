import Foundation
import StoreEngine

extension EventRecord {
  /// `retentionSheet`: the customer moved to cancel a subscription; what the cancel sheet showed
  /// (from the developer's realtime endpoint, or the default message when its answer was not usable).
  struct RetentionSheetShown: Sendable, Equatable, Codable {
    var productID: String
    /// `plain`, `message`, `alternate` or `offer`.
    var sheet: String
    var messageIdentifier: String?
    var header: String?
    var body: String?
    var alternateProductID: String?
    var offerIdentifier: String?
    /// Whether the message shown is the product's default (no realtime answer was used); false for the plain sheet.
    var isDefault: Bool
    var fallbackReason: String?
    var url: String?
    var outcome: String?
    var latencyMilliseconds: Double?

    enum CodingKeys: String, CodingKey {
      case sheet, header, body, url, outcome, fallbackReason
      case productID = "productId"
      case messageIdentifier, offerIdentifier
      case alternateProductID = "alternateProductId"
      case isDefault = "default"
      case latencyMilliseconds = "latencyMs"
    }

    init(productID: Product.ID, result: RetentionFlowResult) {
      self.productID = productID.rawValue
      let sheet = result.decision.sheet
      self.sheet = sheet.kind
      var message: RetentionMessaging.Message?
      switch sheet {
      case .plain: break
      case .message(let id, let shown):
        messageIdentifier = id
        message = shown
      case .alternateProduct(let product, let id, let shown):
        alternateProductID = product.rawValue
        messageIdentifier = id
        message = shown
      case .promotionalOffer(let offer, let id, let shown):
        offerIdentifier = offer.offerIdentifier
        messageIdentifier = id
        message = shown
      }
      header = message?.header
      body = message?.body
      // The default message shows: no realtime call was made, or its answer was not usable.
      isDefault = sheet != .plain && (result.url == nil || result.decision.fallbackReason != nil)
      fallbackReason = result.decision.fallbackReason
      url = result.url
      outcome = result.outcome
      latencyMilliseconds = result.milliseconds.map { ($0 * 100).rounded() / 100 }
    }

    var text: [(String, String?)] {
      [
        ("productId", productID), ("sheet", sheet), ("messageIdentifier", messageIdentifier), ("header", header),
        ("alternateProductId", alternateProductID), ("offerIdentifier", offerIdentifier),
        ("default", isDefault ? "yes" : "no"), ("fallbackReason", fallbackReason), ("outcome", outcome),
      ]
    }
  }
}
