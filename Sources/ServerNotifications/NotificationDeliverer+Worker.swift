import Foundation
import StoreEngine

extension NotificationDeliverer {
  /// The deliverer thread's state: its libcurl handle, used by that thread only, and its ledger,
  /// whose work (looks, fixes, records) runs on the ledger's own queue alongside the POSTs.
  final class Worker {
    /// Entries taken per look at the outbox: each look reads every pending row once to find the
    /// chains' heads, so a backlog is taken in few large looks, not many small ones.
    static let batch = 500
    /// A look's entries are signed and fixed a chunk at a time, the next chunk while the current
    /// one's POSTs are in flight; the first chunk is small so a burst's first POST waits for few signatures.
    static let firstChunk = 8
    static let chunk = 64
    /// Attempts are recorded together (one transaction) once this many are waiting…
    static let recordBatch = 32
    /// …or the oldest has waited this long: a crash forgets at most these, which are then sent again.
    static let recordDelay = Duration.milliseconds(20)

    let ledger: DeliveryLedger
    let configuration: DeliveryConfiguration
    let client: WebhookClient

    init(ledger: DeliveryLedger, configuration: DeliveryConfiguration, client: WebhookClient) {
      self.ledger = ledger
      self.configuration = configuration
      self.client = client
    }

    // What is queued (a fix ahead, the last records) finishes before the connection closes.
    deinit { ledger.close() }

    /// The ledger's commit marker (SQLite's `data_version`) at the last round.
    private var seenVersion: Int64?

    /// Delivers what is due until nothing is (a chain's next entry becomes due once its previous one
    /// is settled), or `proceed` says stop; with `onlyIfCommitted`, only when another connection
    /// committed since the last round. A ledger error ends the round; the next wake-up tries again,
    /// on a new connection when this one was lost. On a shared ledger only the lease holder sends.
    func deliverDue(onlyIfCommitted: Bool, while proceed: () -> Bool) {
      let environment = configuration.environment
      do throws(LedgerError) {
        let version = try ledger.sync { ledger throws(LedgerError) in try ledger.commitMarker() }
        if onlyIfCommitted, let version, version == seenVersion { return }
        seenVersion = version
        guard try ledger.lead() else { return }
        while proceed() {
          // Queued after the last look's records, so it sees them.
          let look = try ledger.sync { ledger throws(LedgerError) -> (url: String, clock: Date, due: [OutboxEntry])? in
            guard let url = try ledger.notificationURL(environment: environment) else { return nil }
            let clock = try ledger.virtualClock() ?? .distantPast
            let due = try ledger.dueNotifications(at: clock, environment: environment, limit: Self.batch)
            return due.isEmpty ? nil : (url, clock, due)
          }
          guard let look else { return }
          try deliver(look.due, to: look.url, at: look.clock, while: proceed)
        }
      } catch {
        ledger.log(.ledgerFailed("\(error)"))
      }
    }

    /// `due` in chunks (``firstChunk``, then ``chunk``): the first 8, then 64 at a time.
    static func chunks(of due: [OutboxEntry]) -> [[OutboxEntry]] {
      var chunks: [[OutboxEntry]] = []
      var start = due.startIndex
      while start < due.endIndex {
        let end = min(due.endIndex, start + (chunks.isEmpty ? firstChunk : chunk))
        chunks.append(Array(due[start..<end]))
        start = end
      }
      return chunks
    }

    /// Sends each entry once, chunk by chunk, each chunk only once its fix is committed (the next one
    /// is fixed meanwhile), and queues the attempts to be recorded (``recordBatch``, ``recordDelay``).
    /// A look has at most one entry per chain, so the overlap cannot reorder a chain.
    private func deliver(
      _ due: [OutboxEntry], to url: String, at clock: Date, while proceed: () -> Bool
    ) throws(LedgerError) {
      var chunks = Self.chunks(of: due)[...]
      var next = chunks.popFirst().map(ledger.fix)
      var unrecorded: [DeliveryLedger.Attempted] = []
      var oldest = ContinuousClock.now
      // Whatever was sent is recorded, however the look ends.
      defer { ledger.record(unrecorded) }
      while let pending = next {
        let entries = try pending.entries()
        next = chunks.popFirst().map(ledger.fix)
        for pending in entries {
          guard proceed() else { return }
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
          unrecorded.append(DeliveryLedger.Attempted(entry: entry, attempt: attempt, detail: outcome.detail))
          if unrecorded.count >= Self.recordBatch || ContinuousClock.now - oldest >= Self.recordDelay {
            ledger.record(unrecorded)
            unrecorded.removeAll()
            if let failure = ledger.recordFailure() { throw failure }
          }
        }
      }
      ledger.record(unrecorded)
      unrecorded.removeAll()
      try ledger.drain()
    }
  }
}
