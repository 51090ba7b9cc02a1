import Foundation
import StoreEngine

/// The background thread of a serving process that delivers due outbox entries to the app's server.
///
/// It looks at the outbox when any process commits to the ledger (inotify on a data directory,
/// `LISTEN` on a shared PostgreSQL ledger), when asked, and at least every
/// ``DeliveryConfiguration/fallbackPoll``; on a shared ledger only the deliverer holding the
/// environment's lease sends, and another takes over when its connection goes. What is due is decided at the ledger's
/// virtual clock, so advancing the clock fires the retries. An entry's UUID and signed payload are
/// written to the ledger before its first attempt and each attempt after it is made, so a crash
/// between the two sends the same bytes again (at least once, never lost).
public final class NotificationDeliverer: Sendable {
  /// What the deliverer did, for the caller's log.
  public enum Report: Sendable, Equatable {
    /// One attempt, recorded; `entry` as it is now (state, next attempt), `detail` libcurl's words for a failure.
    case attempted(entry: OutboxEntry, attempt: DeliveryAttempt, detail: String?)
    /// The ledger refused a read or a write; the round ended and the next wake-up tries again.
    case ledgerFailed(String)
  }

  private let configuration: DeliveryConfiguration
  private let watch: any DeliveryWake
  private let stopped = Locked(false)
  private let finished = DispatchSemaphore(value: 0)
  private let worker: Locked<Worker?>

  /// Opens its own ledger connection on `directory` and starts the thread.
  public convenience init(
    directory: URL, signer: any TransactionSigner, configuration: DeliveryConfiguration, proposedNamespace: UInt128,
    log: @escaping @Sendable (Report) -> Void
  ) throws(DeliveryError) {
    try self.init(
      source: .sqlite(directory: directory), signer: signer, configuration: configuration, proposedNamespace: proposedNamespace,
      log: log)
  }

  /// Opens its own ledger connection on `source` and starts the thread.
  ///
  /// - Parameters:
  ///   - signer: Signs the payloads (the CA, in `configuration.environment`).
  ///   - proposedNamespace: The UUID namespace kept if the ledger has none yet (seeded in tests).
  ///   - log: Called after each attempt is recorded, in order, one at a time (on the deliverer's ledger queue).
  public init(
    source: DeliverySource, signer: any TransactionSigner, configuration: DeliveryConfiguration, proposedNamespace: UInt128,
    log: @escaping @Sendable (Report) -> Void
  ) throws(DeliveryError) {
    self.configuration = configuration
    watch = try source.makeWake()
    let ledger: any DeliveryStore
    let namespace: UInt128
    do throws(LedgerError) {
      ledger = try source.open(log: log)
      namespace = try ledger.notificationNamespace(proposing: proposedNamespace)
    } catch {
      throw .ledger("\(error)")
    }
    let deliveryLedger = DeliveryLedger(
      ledger: ledger, reopen: { () throws(LedgerError) in try source.open(log: log) }, signer: signer, configuration: configuration,
      namespace: namespace, log: log)
    worker = Locked(Worker(ledger: deliveryLedger, configuration: configuration, client: WebhookClient(configuration: configuration.client)))
    let thread = Thread { [self] in run() }
    thread.name = "notification-deliverer"
    thread.start()
  }

  /// Looks at the outbox now (a commit this process made; the wake-up would also tell).
  public func wake() { watch.interrupt() }

  /// Ends the thread after the attempt in flight (bounded by the client's time-out); safe to call twice.
  public func stop() {
    let first = stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    watch.interrupt()
    finished.wait()
  }

  /// Whether ``stop()`` was called (internal: a test stops it with a POST in flight).
  var isStopped: Bool { stopped.withLock { $0 } }

  private func run() {
    defer { finished.signal() }
    // A commit writes the WAL (the event) before it syncs it and makes it visible to readers (the
    // WAL index in shared memory, which raises no event), so a look right after the event can miss
    // it. After each event, looks follow at 1, 2, 4 … 128 ms, each a glance at `data_version` unless
    // another connection committed; the fallback poll looks in any case.
    var followUps = 0
    var delay = Duration.milliseconds(1)
    var onlyIfCommitted = false
    while !isStopped {
      worker.withLock { $0?.deliverDue(onlyIfCommitted: onlyIfCommitted, while: { !self.isStopped }) }
      guard !isStopped else { break }
      let written = watch.wait(timeout: followUps > 0 ? delay : configuration.fallbackPoll)
      if written {
        onlyIfCommitted = false
        if watch.followsUp {
          followUps = 8
          delay = .milliseconds(1)
        }
      } else if followUps > 0 {
        followUps -= 1
        delay *= 2
        onlyIfCommitted = true
      } else {
        onlyIfCommitted = false
      }
    }
    // The connection closes here, once what its queue holds (a fix ahead, the last records) is done.
    worker.withLock { $0 = nil }
  }
}
