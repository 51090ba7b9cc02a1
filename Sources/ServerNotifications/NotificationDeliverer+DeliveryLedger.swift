import Foundation
import StoreEngine

extension NotificationDeliverer {
  /// The deliverer's ledger connection and signer, used on a serial queue of their own, so the next
  /// chunk of a look is signed and fixed, and the last attempts recorded, while the deliverer's thread
  /// has POSTs in flight. Work runs in the order it is queued: a look at the outbox queued after a
  /// record sees it, and a chunk is handed over only once its fix is committed.
  final class DeliveryLedger: Sendable {
    /// An attempt made, waiting to be recorded (and then logged).
    struct Attempted: Sendable {
      var entry: OutboxEntry
      var attempt: DeliveryAttempt
      var detail: String?
    }

    /// A chunk queued to be fixed; ``entries()`` waits for it.
    final class Pending: Sendable {
      private let done = DispatchSemaphore(value: 0)
      private let result = Locked<Result<[OutboxEntry], LedgerError>?>(nil)

      fileprivate func fulfil(_ value: Result<[OutboxEntry], LedgerError>) {
        result.withLock { $0 = value }
        done.signal()
      }

      /// The chunk with its UUIDs and signed payloads, once they are committed; call once.
      func entries() throws(LedgerError) -> [OutboxEntry] {
        done.wait()
        guard let value = result.withLock({ $0 }) else { return [] }
        return try value.get()
      }
    }

    private let queue = DispatchQueue(label: "notification-deliverer-ledger")
    // Touched only by work on `queue` (serial); the lock makes that checkable, it is never contended.
    // Its store is nil after the connection was lost, until the next work opens a new one (``reopen``).
    private let ledger: Locked<Connection>
    private let reopen: @Sendable () throws(LedgerError) -> any DeliveryStore
    private let failure = Locked<LedgerError?>(nil)
    private let signer: any TransactionSigner
    private let configuration: DeliveryConfiguration
    private let namespace: UInt128
    let log: @Sendable (Report) -> Void

    /// The open connection, and whether it holds the environment's delivery lease: taken on the
    /// store's connection `leaseConnection`, so a store that reconnected by itself must ask again.
    private struct Connection {
      var store: (any DeliveryStore)?
      var leading = false
      var leaseConnection = 0
    }

    init(
      ledger: any DeliveryStore, reopen: @escaping @Sendable () throws(LedgerError) -> any DeliveryStore, signer: any TransactionSigner,
      configuration: DeliveryConfiguration, namespace: UInt128, log: @escaping @Sendable (Report) -> Void
    ) {
      self.ledger = Locked(Connection(store: ledger))
      self.reopen = reopen
      self.signer = signer
      self.configuration = configuration
      self.namespace = namespace
      self.log = log
    }

    /// Runs `body` on the queue, after everything queued before, and waits for it.
    func sync<Value>(_ body: (any DeliveryStore) throws(LedgerError) -> Value) throws(LedgerError) -> Value {
      try queue.sync { perform(body) }.get()
    }

    /// Whether this deliverer may send `environment`'s notifications now: on a shared ledger it asks
    /// for the lease at each look until its connection holds it (the holder keeps it for the
    /// connection's life; a lost connection gives it up); on a data directory, always.
    func lead() throws(LedgerError) -> Bool {
      try queue.sync {
        ledger.withLock { connection -> Result<Bool, LedgerError> in
          run(&connection) { _, leading throws(LedgerError) in leading }
        }
      }.get()
    }

    /// Signs the entries of `chunk` not yet fixed and writes their UUIDs and payloads (one
    /// transaction), on the queue; a crash after a send then resends these very bytes.
    func fix(_ chunk: [OutboxEntry]) -> Pending {
      let pending = Pending()
      // Only under the lease: a connection lost and opened again meanwhile must win it back first,
      // or another deliverer that took over could fix (sign) the same entries differently.
      queue.async { [self] in pending.fulfil(perform(needsLease: true) { ledger throws(LedgerError) in try fixed(chunk, in: ledger) }) }
      return pending
    }

    /// Records `attempts` (one transaction) on the queue, then logs each; a failure is kept for ``drain()``.
    func record(_ attempts: [Attempted]) {
      guard !attempts.isEmpty else { return }
      queue.async { [self] in
        switch perform({ ledger throws(LedgerError) in try ledger.recordDeliveries(of: attempts.map(\.entry)) }) {
        case .success:
          for record in attempts { log(.attempted(entry: record.entry, attempt: record.attempt, detail: record.detail)) }
        case .failure(let error):
          failure.withLock { $0 = $0 ?? error }
        }
      }
    }

    /// The first record that failed since the last call, without waiting.
    func recordFailure() -> LedgerError? {
      failure.withLock { kept in
        defer { kept = nil }
        return kept
      }
    }

    /// Waits for everything queued; throws the first record that failed.
    func drain() throws(LedgerError) {
      queue.sync {}
      if let error = recordFailure() { throw error }
    }

    /// Waits for everything queued, then closes the connection.
    func close() {
      queue.sync { ledger.withLock { $0.store?.close() } }
    }

    private func perform<Value>(
      needsLease: Bool = false, _ body: (any DeliveryStore) throws(LedgerError) -> Value
    ) -> Result<Value, LedgerError> {
      ledger.withLock { connection in
        run(&connection) { store, leading throws(LedgerError) in
          if needsLease, !leading { throw LedgerError.busy(path: store.ledgerName) }
          return try body(store)
        }
      }
    }

    /// Runs `body` on the connection, opening one first when it was lost and asking for the lease
    /// when it does not hold it; a lost connection is dropped (its lease goes with it), so the next
    /// work opens a new one.
    private func run<Value>(
      _ connection: inout Connection, _ body: (any DeliveryStore, _ leading: Bool) throws(LedgerError) -> Value
    ) -> Result<Value, LedgerError> {
      do throws(LedgerError) {
        let store: any DeliveryStore
        if let open = connection.store {
          store = open
        } else {
          store = try reopen()
          connection.store = store
        }
        if connection.leading, connection.leaseConnection != store.connectionNumber { connection.leading = false }
        if !connection.leading {
          connection.leading = try store.takeDeliveryLease(environment: configuration.environment)
          connection.leaseConnection = store.connectionNumber
        }
        return .success(try body(store, connection.leading))
      } catch {
        if case .unreachable = error {
          connection.store?.close()
          connection = Connection()
        }
        return .failure(error)
      }
    }

    private func fixed(_ chunk: [OutboxEntry], in ledger: any DeliveryStore) throws(LedgerError) -> [OutboxEntry] {
      var entries = chunk
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
  }
}
