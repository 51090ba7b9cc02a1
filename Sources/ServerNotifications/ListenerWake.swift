import Foundation
import PostgreSQLLedger
import StoreEngine

/// The deliverer's wake-up on a shared ledger: `LISTEN` on a connection of its own
/// (``PostgreSQLChangeListener``), opened again after the connection is lost. While there is none,
/// a wait sleeps for its time-out (or an interrupt) and says "look anyway", so the fallback poll
/// goes on and the look reports the lost ledger.
final class ListenerWake: DeliveryWake, @unchecked Sendable {
  private let address: PostgreSQLAddress
  private let listener: Locked<PostgreSQLChangeListener?>
  private let interrupted = DispatchSemaphore(value: 0)

  var followsUp: Bool { false }

  init(address: PostgreSQLAddress) throws(DeliveryError) {
    self.address = address
    do throws(LedgerError) {
      listener = Locked(try PostgreSQLChangeListener(address: address))
    } catch {
      throw .ledger("\(error)")
    }
  }

  func wait(timeout: Duration) -> Bool {
    let address = self.address
    let current = listener.withLock { listener -> PostgreSQLChangeListener? in
      if listener == nil { listener = try? PostgreSQLChangeListener(address: address) }
      return listener
    }
    guard let current else {
      _ = interrupted.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)))
      return true
    }
    do throws(LedgerError) {
      return try current.wait(timeout: timeout)
    } catch {
      listener.withLock { $0 = nil }
      return true
    }
  }

  func interrupt() {
    // The semaphore only while there is no listener, so interrupts do not pile up for a later wait.
    let heard = listener.withLock { listener -> Bool in
      listener?.interrupt()
      return listener != nil
    }
    if !heard { interrupted.signal() }
  }
}
