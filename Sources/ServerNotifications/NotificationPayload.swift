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

  /// `appData`: the app and the customer's signed app transaction (RESCIND_CONSENT).
  struct AppData: Encodable, Equatable {
    var environment: String
    var appAppleId: Int64?
    var bundleId: String
    var signedAppTransactionInfo: String?
  }

  var notificationType: String
  var subtype: String?
  var notificationUUID: String
  var version = "2.0"
  /// Milliseconds since 1970: the notification's virtual date.
  var signedDate: Int64
  var data: Data?
  var summary: Summary?
  var appData: AppData?

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
    } else if notification.notificationType == .rescindConsent {
      appData = AppData(
        environment: environment, appAppleId: appleID, bundleId: bundleID, signedAppTransactionInfo: notification.signedAppTransactionInfo)
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

  /// The JSON bytes to sign (keys sorted, so a payload is the same bytes every time): those
  /// `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` makes, written directly.
  func encoded() -> Foundation.Data {
    var object = JSONObjectWriter()
    object.add("appData", appData.map(Self.object))
    object.add("data", data.map(Self.object))
    object.add("notificationType", notificationType)
    object.add("notificationUUID", notificationUUID)
    object.add("signedDate", signedDate)
    object.add("subtype", subtype)
    object.add("summary", summary.map(Self.object))
    object.add("version", version)
    return Foundation.Data(object.closed)
  }

  private static func object(_ data: Data) -> JSONObjectWriter {
    var object = JSONObjectWriter()
    object.add("appAppleId", data.appAppleId)
    object.add("bundleId", data.bundleId)
    object.add("bundleVersion", data.bundleVersion)
    object.add("consumptionRequestReason", data.consumptionRequestReason)
    object.add("environment", data.environment)
    object.add("signedRenewalInfo", data.signedRenewalInfo)
    object.add("signedTransactionInfo", data.signedTransactionInfo)
    object.add("status", data.status.map(Int64.init))
    return object
  }

  private static func object(_ appData: AppData) -> JSONObjectWriter {
    var object = JSONObjectWriter()
    object.add("appAppleId", appData.appAppleId)
    object.add("bundleId", appData.bundleId)
    object.add("environment", appData.environment)
    object.add("signedAppTransactionInfo", appData.signedAppTransactionInfo)
    return object
  }

  private static func object(_ summary: Summary) -> JSONObjectWriter {
    var object = JSONObjectWriter()
    object.add("appAppleId", summary.appAppleId)
    object.add("bundleId", summary.bundleId)
    object.add("environment", summary.environment)
    object.add("failedCount", Int64(summary.failedCount))
    object.add("productId", summary.productId)
    object.add("requestIdentifier", summary.requestIdentifier)
    object.add("storefrontCountryCodes", summary.storefrontCountryCodes)
    object.add("succeededCount", Int64(summary.succeededCount))
    return object
  }
}
