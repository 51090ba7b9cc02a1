import Foundation

/// One renewal-date extension of a subscription chain (App Store Server API), kept so that a repeated
/// request is recognised and Apple's limit of two a year can be checked.
public struct RenewalExtension: Sendable, Equatable, Codable {
  /// The caller's `requestIdentifier`.
  public var requestID: String
  public var days: Int
  /// When it was granted (virtual time).
  public var date: Date

  public init(requestID: String, days: Int, date: Date) {
    self.requestID = requestID
    self.days = days
    self.date = date
  }
}
