import Foundation
import StoreEngine
import XCTest

@testable import ServerNotifications

/// The payload's hand-written JSON is byte for byte what `JSONEncoder` (sorted keys, slashes
/// unescaped) makes of it, for each shape a notification takes.
final class NotificationPayloadTests: XCTestCase {
  private func encoderBytes(_ payload: NotificationPayload) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(payload)
  }

  func testEncodedIsWhatJSONEncoderWrites() throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000.1234)
    let renewal = ServerNotification(
      notificationType: .didRenew, subtype: .billingRecovery, transactionID: PaymentTransaction.ID(12), originalTransactionID: PaymentTransaction.ID(10),
      signedTransactionInfo: "eyJh.eyJi/c+d=.sig", signedRenewalInfo: "renewal/info", status: 1, date: date)
    let request = ServerNotification(
      notificationType: .consumptionRequest, transactionID: PaymentTransaction.ID(3), originalTransactionID: PaymentTransaction.ID(3), consumptionRequestReason: "UNINTENDED_PURCHASE",
      date: date)
    // Characters JSON must escape, and some it need not.
    let awkward = ServerNotification(
      notificationType: .oneTimeCharge, transactionID: PaymentTransaction.ID(4), originalTransactionID: PaymentTransaction.ID(4),
      signedTransactionInfo: "quote \" backslash \\ tab \t newline \n nul \u{0} bell \u{7} unit \u{1F} é ✓ 🎉 </a>", date: date)
    let extended = ServerNotification(
      notificationType: .renewalExtension, subtype: .summary,
      summary: MassExtension(productID: "monthly", requestID: "r/1", days: 3, reasonCode: 1, storefronts: ["USA", "FRA"], succeeded: 2, failed: 1),
      date: date)
    let test = ServerNotification(notificationType: .test, date: date)
    let cases = [renewal, request, awkward, extended, test]
    for notification in cases {
      for environment in ["Sandbox", "Production"] {
        let payload = NotificationPayload(
          notification, uuid: "0b0e0f00-0000-4000-8000-000000000001", environment: environment, bundleID: "com.example.app",
          appAppleID: 1_234_567_890)
        XCTAssertEqual(
          String(decoding: payload.encoded(), as: UTF8.self), String(decoding: try encoderBytes(payload), as: UTF8.self),
          "\(notification.notificationType) in \(environment)")
      }
    }
  }
}
