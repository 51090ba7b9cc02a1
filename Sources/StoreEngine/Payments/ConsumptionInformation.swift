import Foundation

/// What the app's server reported about a refund-requested purchase (App Store Server API, Send
/// Consumption Information v2), kept on the transaction it describes. Apple's names and values.
public struct ConsumptionInformation: Sendable, Equatable, Codable {
  public var customerConsented: Bool
  public var sampleContentProvided: Bool
  /// `DELIVERED`, `UNDELIVERED_QUALITY_ISSUE`, `UNDELIVERED_WRONG_ITEM`, `UNDELIVERED_SERVER_OUTAGE`,
  /// `UNDELIVERED_OTHER`.
  public var deliveryStatus: String
  /// Thousandths of a percent consumed (50000 = 50 %).
  public var consumptionPercentage: Int?
  /// `DECLINE`, `GRANT_FULL` or `GRANT_PRORATED`.
  public var refundPreference: String?
  /// When it was received (virtual time).
  public var receivedDate: Date

  public init(
    customerConsented: Bool, sampleContentProvided: Bool, deliveryStatus: String, consumptionPercentage: Int? = nil,
    refundPreference: String? = nil, receivedDate: Date
  ) {
    self.customerConsented = customerConsented
    self.sampleContentProvided = sampleContentProvided
    self.deliveryStatus = deliveryStatus
    self.consumptionPercentage = consumptionPercentage
    self.refundPreference = refundPreference
    self.receivedDate = receivedDate
  }
}
