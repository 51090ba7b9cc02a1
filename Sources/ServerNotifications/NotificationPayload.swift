import Foundation
import StoreEngine

/// Apple's `ResponseBodyV2DecodedPayload`: what a notification's `signedPayload` signs.
struct NotificationPayload: Encodable, Equatable {
  /// `data`: the app, and the transaction and renewal info it is about.
  struct Data: Encodable, Equatable {
    var environment: String
    var appAppleId: Int64?
    var bundleId: String
    var bundleVersion: String?
    var signedTransactionInfo: String?
    var signedRenewalInfo: String?
    var status: Int?
    var consumptionRequestReason: String?
  }

  /// `summary`: a mass renewal-date extension's outcome (RENEWAL_EXTENSION / SUMMARY).
  struct Summary: Encodable, Equatable {
    var environment: String
    var appAppleId: Int64?
    var bundleId: String
    var productId: String
    var requestIdentifier: String
    var storefrontCountryCodes: [String]
    var succeededCount: Int
    var failedCount: Int
  }

  var notificationType: String
  var subtype: String?
  var notificationUUID: String
  var version = "2.0"
  /// Milliseconds since 1970: the notification's virtual date.
  var signedDate: Int64
  var data: Data?
  var summary: Summary?

  /// The payload of `notification` as Apple fills it.
  ///
  /// - Parameter appAppleID: Sent in Production only, as Apple does (Sandbox apps have none).
  init(_ notification: ServerNotification, uuid: String, environment: String, bundleID: String, appAppleID: Int64) {
    notificationType = notification.notificationType.rawValue
    subtype = notification.subtype?.rawValue
    notificationUUID = uuid
    signedDate = Int64((notification.date.timeIntervalSince1970 * 1000).rounded())
    let appleID = environment == "Production" ? appAppleID : nil
    if let extensions = notification.summary {
      summary = Summary(
        environment: environment, appAppleId: appleID, bundleId: bundleID, productId: extensions.productID.rawValue,
        requestIdentifier: extensions.requestID, storefrontCountryCodes: extensions.storefronts ?? [],
        succeededCount: extensions.succeeded, failedCount: extensions.failed)
    } else if notification.notificationType == .test {
      data = Data(environment: environment, appAppleId: appleID, bundleId: bundleID)
    } else {
      data = Data(
        environment: environment, appAppleId: appleID, bundleId: bundleID, bundleVersion: Self.bundleVersion,
        signedTransactionInfo: notification.signedTransactionInfo, signedRenewalInfo: notification.signedRenewalInfo,
        status: notification.status, consumptionRequestReason: notification.consumptionRequestReason)
    }
  }

  /// `bundleVersion`: the app version Get App Transaction Info reports too (DECISIONS §15).
  static let bundleVersion = "1"

  /// The JSON bytes to sign (keys sorted, so a payload is the same bytes every time).
  func encoded() throws -> Foundation.Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}
