import Foundation

extension StoreMachine {
  /// A parent or guardian withdrew consent for `account`'s use of the app: the app's server is told
  /// by RESCIND_CONSENT with the customer's app transaction signed now (Notifications 2.19,
  /// `appData.signedAppTransactionInfo`). StoreKit tells the app nothing: nothing it bought changes.
  mutating func rescindConsent(account: String, firstPurchase: Date?) throws(EngineError) {
    guard sendsNotifications else { return }
    let environmentName = environment.signer?.environment ?? "Sandbox"
    let payload = AppTransactionPayload(
      environment: environmentName, appAppleID: nil, bundleID: environment.bundleID, account: account, firstPurchase: firstPurchase,
      now: now)
    var notification = ServerNotification(notificationType: .rescindConsent, account: account, date: now)
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      notification.signedAppTransactionInfo = try environment.signer?.sign(payload: try encoder.encode(payload))
    } catch {
      // No transaction is being signed: the app transaction is (transaction 0 names none).
      throw .signing(transaction: PaymentTransaction.ID(0), reason: "signing the app transaction of \(account): \(error)")
    }
    step.notifications.append(notification)
  }
}
