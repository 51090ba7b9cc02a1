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
    guard !entry.attempts.isEmpty, let payload = entry.signedPayload, let facts = Facts(jws: payload),
      let scope = facts.data ?? facts.summary, scope.environment == environment, scope.bundleId == bundleID
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

    /// The payload of a compact JWS, decoded from its bytes: a history page may look at many, and
    /// splitting by Characters costs milliseconds each.
    init?(jws: String) {
      let bytes = jws.utf8
      guard let first = bytes.firstIndex(of: UInt8(ascii: ".")) else { return nil }
      let start = bytes.index(after: first)
      guard let second = bytes[start...].firstIndex(of: UInt8(ascii: ".")) else { return nil }
      var base64 = [UInt8]()
      base64.reserveCapacity(bytes.distance(from: start, to: second) + 3)
      for byte in bytes[start..<second] {
        switch byte {
        case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
        case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
        default: base64.append(byte)
        }
      }
      while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
      guard let data = Data(base64Encoded: Data(base64)), let facts = try? JSONDecoder().decode(Facts.self, from: data) else {
        return nil
      }
      self = facts
    }
  }
}

extension LedgerReader {
  /// The first `limit` entries after `sequence`, in commit order, sent for this server and kept by
  /// `admits` (checked first, on the entry: the payload is decoded only for those it keeps). Read
  /// in batches, so a page costs the entries up to it, not the whole outbox. None without an outbox.
  func sentNotifications(
    after sequence: Int64 = 0, limit: Int, where admits: (OutboxEntry) -> Bool
  ) throws(APIError) -> [SentNotification] {
    guard let outbox = ledger as? any NotificationOutbox else { return [] }
    var found: [SentNotification] = []
    var position = sequence
    while found.count < limit {
      let batch = try read { () throws(LedgerError) in try outbox.outbox(after: position, limit: 500) }
      for entry in batch where admits(entry) {
        guard let sent = SentNotification(entry, environment: environment.payloadName, bundleID: bundleID) else { continue }
        found.append(sent)
        if found.count == limit { break }
      }
      guard let last = batch.last, batch.count == 500 else { break }
      position = last.sequence
    }
    return found
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
