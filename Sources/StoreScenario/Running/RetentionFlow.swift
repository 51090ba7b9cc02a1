import Foundation
import StoreEngine

/// One cancel flow the storefront shows: the subscription the customer moves to cancel.
public struct RetentionFlowRequest: Sendable, Equatable {
  public var productID: Product.ID
  /// The subscription's original transaction (`originalTransactionId` of the realtime request).
  public var originalTransactionID: String
  /// BCP 47 (`en-US`), the realtime request's `userLocale` and the default message's locale.
  public var locale: String

  public init(productID: Product.ID, originalTransactionID: String, locale: String) {
    self.productID = productID
    self.originalTransactionID = originalTransactionID
    self.locale = locale
  }
}

/// What the cancel flow showed, and what its realtime call did (nil without a realtime URL).
public struct RetentionFlowResult: Sendable, Equatable {
  public var decision: RetentionDecision
  /// The endpoint called.
  public var url: String?
  /// How the call ended: an HTTP status, or Apple's `SendAttemptResult` name.
  public var outcome: String?
  /// Wall-clock milliseconds of the call.
  public var milliseconds: Double?

  public init(decision: RetentionDecision, url: String? = nil, outcome: String? = nil, milliseconds: Double? = nil) {
    self.decision = decision
    self.url = url
    self.outcome = outcome
    self.milliseconds = milliseconds
  }
}

/// What the customer does on the cancel sheet (`cancel-flow PRODUCT choose=…`).
public enum RetentionChoice: String, Sendable, Equatable, CaseIterable {
  /// Close the sheet: nothing changes.
  case dismiss
  /// Take what the sheet offers: switch to the alternate product, or buy with the promotional offer.
  case accept
  /// Cancel anyway: auto-renew off.
  case cancel
}
