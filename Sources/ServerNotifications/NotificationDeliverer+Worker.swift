import Foundation
import SQLiteLedger
import StoreEngine

extension NotificationDeliverer {
  /// The deliverer thread's state: its ledger connection and libcurl handle, used by that thread only.
  final class Worker {
    let ledger: SQLiteLedgerStore
    let signer: any TransactionSigner
    let configuration: DeliveryConfiguration
    let namespace: UInt128
    let client: WebhookClient
    let log: @Sendable (Report) -> Void

    init(
      ledger: SQLiteLedgerStore, signer: any TransactionSigner, configuration: DeliveryConfiguration, namespace: UInt128,
      client: WebhookClient, log: @escaping @Sendable (Report) -> Void
    ) {
      self.ledger = ledger
      self.signer = signer
      self.configuration = configuration
      self.namespace = namespace
      self.client = client
      self.log = log
    }

    deinit { ledger.close() }

    /// Delivers what is due until nothing is (a chain's next entry becomes due once its previous one
    /// is settled), or `proceed` says stop. A ledger error ends the round; the next wake-up tries again.
    func deliverDue(while proceed: () -> Bool) {
      do throws(LedgerError) {
        while proceed() {
          guard let url = try ledger.notificationURL(environment: configuration.environment) else { return }
          let clock = try ledger.virtualClock() ?? .distantPast
          let due = try ledger.dueNotifications(at: clock, environment: configuration.environment)
          guard !due.isEmpty else { return }
          for entry in due {
            guard proceed() else { return }
            try deliver(entry, to: url, at: clock)
          }
        }
      } catch {
        log(.ledgerFailed("\(error)"))
      }
    }

    private func deliver(_ pending: OutboxEntry, to url: String, at clock: Date) throws(LedgerError) {
      var entry = pending
      if entry.notificationUUID == nil || entry.signedPayload == nil {
        let uuid = NotificationUUID.make(namespace: namespace, sequence: entry.sequence)
        let payload = NotificationPayload(
          entry.notification, uuid: uuid, environment: configuration.environment, bundleID: configuration.bundleID,
          appAppleID: configuration.appAppleID)
        do {
          entry.signedPayload = try signer.sign(payload: payload.encoded())
        } catch {
          throw .writeFailed(path: ledger.path, reason: "notification \(entry.sequence) could not be signed (\(error))")
        }
        entry.notificationUUID = uuid
        // Kept before the first attempt, so a crash after sending resends these very bytes.
        try ledger.recordDelivery(of: entry)
      }
      // The first attempt is made at once; it is dated no earlier than the notification.
      let attemptDate = max(clock, entry.notification.date)
      let body = Data(#"{"signedPayload":""#.utf8) + Data((entry.signedPayload ?? "").utf8) + Data(#""}"#.utf8)
      let outcome = client.post(body, to: url)
      let attempt = DeliveryAttempt(date: attemptDate, result: outcome.result, httpStatus: outcome.httpStatus, milliseconds: outcome.milliseconds)
      entry.attempts.append(attempt)
      if outcome.result == .success {
        entry.state = .delivered
        entry.nextAttempt = nil
      } else if let next = configuration.schedule.nextAttempt(afterFailed: entry.attempts.count, lastAt: attemptDate) {
        entry.nextAttempt = next
      } else {
        entry.state = .failed
        entry.nextAttempt = nil
      }
      try ledger.recordDelivery(of: entry)
      log(.attempted(entry: entry, attempt: attempt, detail: outcome.detail))
    }
  }
}
