import Foundation
import StoreEngine

/// An outbox entry that has been sent at least once, for this server's environment and app: what
/// Get Notification History and Get Test Notification Status report (Apple's history is of sends).
struct SentNotification {
  var entry: OutboxEntry
  /// The signed payload as first sent, byte for byte.
  var signedPayload: String

  /// The entry when it was attempted and its payload's `data` (or `summary`) names `environment`
  /// and `bundleID`; nil otherwise.
  init?(_ entry: OutboxEntry, environment: String, bundleID: String) {
    guard !entry.attempts.isEmpty, let payload = entry.signedPayload, let jws = try? CompactJWS(payload),
      let facts = try? jws.decodePayload(as: Facts.self), let scope = facts.data ?? facts.summary,
      scope.environment == environment, scope.bundleId == bundleID
    else { return nil }
    self.entry = entry
    signedPayload = payload
  }

  var sendAttempts: [SendAttemptItem] { entry.attempts.map(SendAttemptItem.init) }

  /// The two payload fields that say whose notification it is.
  private struct Facts: Decodable {
    struct Scope: Decodable {
      var environment: String?
      var bundleId: String?
    }

    var data: Scope?
    var summary: Scope?
  }
}

extension LedgerReader {
  /// The outbox entries sent for this server, in commit order; none when the ledger keeps no outbox.
  func sentNotifications() throws(APIError) -> [SentNotification] {
    guard let outbox = ledger as? any NotificationOutbox else { return [] }
    let entries = try read { () throws(LedgerError) in try outbox.allNotifications() }
    return entries.compactMap { SentNotification($0, environment: environment.payloadName, bundleID: bundleID) }
  }

  /// The ledger's virtual clock, when it has one.
  func virtualNow() throws(APIError) -> Date? {
    try read { () throws(LedgerError) in try ledger.load() }.clock
  }

  /// The notification URL the app's server set for this server's environment, if any.
  func notificationURL() throws(APIError) -> String? {
    try read { () throws(LedgerError) in try ledger.load() }.notificationURLs[environment.payloadName]
  }
}
