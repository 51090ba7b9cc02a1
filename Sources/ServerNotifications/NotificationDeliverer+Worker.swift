import Foundation
import StoreEngine

extension NotificationDeliverer {
  /// The deliverer thread's state: its ledger connection and libcurl handle, used by that thread only.
  final class Worker {
    /// Entries taken per look at the outbox: each look reads every pending row once to find the
    /// chains' heads, so a backlog is taken in few large looks, not many small ones.
    static let batch = 500
    /// Attempts are recorded together (one transaction) once this many are waiting…
    static let recordBatch = 32
    /// …or the oldest has waited this long: a crash forgets at most these, which are then sent again.
    static let recordDelay = Duration.milliseconds(20)

    /// Nil after the connection was lost, until ``reopen`` gives a new one.
    private var ledger: (any DeliveryLedger)?
    private let reopen: () throws(LedgerError) -> any DeliveryLedger
    /// Whether ``ledger``'s connection holds the environment's delivery lease.
    private var leading = false
    let signer: any TransactionSigner
    let configuration: DeliveryConfiguration
    let namespace: UInt128
    let client: WebhookClient
    let log: @Sendable (Report) -> Void

    init(
      ledger: any DeliveryLedger, reopen: @escaping () throws(LedgerError) -> any DeliveryLedger, signer: any TransactionSigner, configuration: DeliveryConfiguration, namespace: UInt128,
      client: WebhookClient, log: @escaping @Sendable (Report) -> Void
    ) {
      self.ledger = ledger
      self.reopen = reopen
      self.signer = signer
      self.configuration = configuration
      self.namespace = namespace
      self.client = client
      self.log = log
    }

    deinit { ledger?.close() }

    /// The ledger's commit marker (SQLite's `data_version`) at the last round.
    private var seenVersion: Int64?

    /// Delivers what is due until nothing is (a chain's next entry becomes due once its previous one
    /// is settled), or `proceed` says stop; with `onlyIfCommitted`, only when another connection
    /// committed since the last round. A ledger error ends the round; the next wake-up tries again,
    /// on a new connection when this one was lost.
    func deliverDue(onlyIfCommitted: Bool, while proceed: () -> Bool) {
      do throws(LedgerError) {
        let ledger = try connected()
        let version = try ledger.commitMarker()
        if onlyIfCommitted, let version, version == seenVersion { return }
        seenVersion = version
        // A standby deliverer asks for the lease at each look; the holder's connection keeps it.
        if !leading { leading = try ledger.takeDeliveryLease(environment: configuration.environment) }
        guard leading else { return }
        while proceed() {
          guard let url = try ledger.notificationURL(environment: configuration.environment) else { return }
          let clock = try ledger.virtualClock() ?? .distantPast
          let due = try ledger.dueNotifications(at: clock, environment: configuration.environment, limit: Self.batch)
          guard !due.isEmpty else { return }
          try deliver(try fixed(due, in: ledger), to: url, at: clock, in: ledger, while: proceed)
        }
      } catch {
        if case .unreachable = error {
          // The lease went with the connection; the next look opens a new one and asks again.
          ledger?.close()
          ledger = nil
          leading = false
        }
        log(.ledgerFailed("\(error)"))
      }
    }

    private func connected() throws(LedgerError) -> any DeliveryLedger {
      if let ledger { return ledger }
      let opened = try reopen()
      ledger = opened
      return opened
    }

    /// `due` with each entry's UUID and signed payload, those not yet fixed written to the ledger
    /// (one transaction) before any is sent, so a crash after sending resends these very bytes.
    private func fixed(_ due: [OutboxEntry], in ledger: any DeliveryLedger) throws(LedgerError) -> [OutboxEntry] {
      var entries = due
      var newlyFixed: [OutboxEntry] = []
      for index in entries.indices where entries[index].notificationUUID == nil || entries[index].signedPayload == nil {
        let uuid = NotificationUUID.make(namespace: namespace, sequence: entries[index].sequence)
        let payload = NotificationPayload(
          entries[index].notification, uuid: uuid, environment: configuration.environment, bundleID: configuration.bundleID,
          appAppleID: configuration.appAppleID)
        do {
          entries[index].signedPayload = try signer.sign(payload: payload.encoded())
        } catch {
          throw .writeFailed(path: ledger.ledgerName, reason: "notification \(entries[index].sequence) could not be signed (\(error))")
        }
        entries[index].notificationUUID = uuid
        newlyFixed.append(entries[index])
      }
      try ledger.recordDeliveries(of: newlyFixed)
      return entries
    }

    /// Sends each entry once and records the attempts, in batches (``recordBatch``, ``recordDelay``).
    private func deliver(
      _ entries: [OutboxEntry], to url: String, at clock: Date, in ledger: any DeliveryLedger, while proceed: () -> Bool
    ) throws(LedgerError) {
      var unrecorded: [(entry: OutboxEntry, attempt: DeliveryAttempt, detail: String?)] = []
      var oldest = ContinuousClock.now
      func flush() throws(LedgerError) {
        try ledger.recordDeliveries(of: unrecorded.map(\.entry))
        for record in unrecorded { log(.attempted(entry: record.entry, attempt: record.attempt, detail: record.detail)) }
        unrecorded.removeAll()
      }
      for pending in entries {
        guard proceed() else { break }
        var entry = pending
        // The first attempt is made at once; it is dated no earlier than the notification.
        let date = max(clock, entry.notification.date)
        let body = Data(#"{"signedPayload":""#.utf8) + Data((entry.signedPayload ?? "").utf8) + Data(#""}"#.utf8)
        let outcome = client.post(body, to: url)
        let attempt = DeliveryAttempt(date: date, result: outcome.result, httpStatus: outcome.httpStatus, milliseconds: outcome.milliseconds)
        entry.attempts.append(attempt)
        if outcome.result == .success {
          entry.state = .delivered
          entry.nextAttempt = nil
        } else if let next = configuration.schedule.nextAttempt(afterFailed: entry.attempts.count, lastAt: date) {
          entry.nextAttempt = next
        } else {
          entry.state = .failed
          entry.nextAttempt = nil
        }
        if unrecorded.isEmpty { oldest = .now }
        unrecorded.append((entry, attempt, outcome.detail))
        if unrecorded.count >= Self.recordBatch || ContinuousClock.now - oldest >= Self.recordDelay { try flush() }
      }
      try flush()
    }
  }
}
