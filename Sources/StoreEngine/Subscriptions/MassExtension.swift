import Foundation

/// One request of the App Store Server API's Extend Subscription Renewal Dates for All Active
/// Subscribers, and once carried out its outcome (what Get Status of Subscription Renewal Date
/// Extensions answers). Kept in the ledger by product and request identifier.
public struct MassExtension: Sendable, Equatable, Codable {
  public var productID: Product.ID
  /// The caller's `requestIdentifier`.
  public var requestID: String
  public var days: Int
  /// Apple's `extendReasonCode` (0 undeclared, 1 customer satisfaction, 2 other, 3 service issue).
  public var reasonCode: Int
  /// ISO 3166-1 alpha-3 storefronts whose subscribers are extended; nil for every storefront.
  public var storefronts: [String]?
  /// When it was carried out (virtual time); nil until then.
  public var completeDate: Date?
  /// Chains extended.
  public var succeeded: Int
  /// Active chains that could not be (two extensions already this year, a family member's copy).
  public var failed: Int

  public init(
    productID: Product.ID, requestID: String, days: Int, reasonCode: Int, storefronts: [String]? = nil,
    completeDate: Date? = nil, succeeded: Int = 0, failed: Int = 0
  ) {
    self.productID = productID
    self.requestID = requestID
    self.days = days
    self.reasonCode = reasonCode
    self.storefronts = storefronts
    self.completeDate = completeDate
    self.succeeded = succeeded
    self.failed = failed
  }
}
