import Foundation
import StoreEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Wakes a waiting thread when another client commits to the shared ledger (`LISTEN
/// storefront_ledger`), when ``interrupt()`` is called, or after a bounded wait, whichever comes
/// first: the PostgreSQL counterpart of watching the SQLite files, on a connection of its own.
///
/// A notification can be missed (the connection dropped and came back), so a waiter treats the
/// time-out as "look anyway": the fallback poll.
public final class PostgreSQLChangeListener: @unchecked Sendable {
  let connection: Locked<PostgreSQLConnection>
  let address: PostgreSQLAddress
  /// Reconnect attempts that failed since the connection was lost (the back-off's position).
  let failedAttempts = Locked(0)
  private let name: String
  /// The store's server process, whose own notifications are not news to it; 0 hears all.
  private let ignoredSender: Int32
  private let pipeRead: Int32
  private let pipeWrite: Int32

  /// Connects to `address` and listens; `ignoring` a store skips the commits that store made.
  public init(address: PostgreSQLAddress, ignoring store: PostgreSQLLedgerStore? = nil) throws(LedgerError) {
    let opened: PostgreSQLConnection
    do {
      opened = try PostgreSQLConnection(address)
      try opened.execute("LISTEN \(PostgreSQLSchema.channel)")
    } catch {
      throw .unreachable(server: address.description, reason: error.description)
    }
    self.address = address
    name = opened.connectedName
    connection = Locked(opened)
    ignoredSender = store?.connection.backendPID ?? 0
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      throw .cannotOpen(path: name, reason: "no pipe for the change listener: \(String(cString: strerror(errno)))")
    }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    pipeRead = ends[0]
    pipeWrite = ends[1]
  }

  deinit {
    close(pipeRead)
    close(pipeWrite)
  }

  /// Blocks until another client's commit is heard, an interrupt, or `timeout`; says whether a
  /// commit was heard.
  ///
  /// When the connection is lost it reconnects within `timeout` (back-off, DECISIONS §27),
  /// listens again and returns true: a commit may have gone unheard, so the waiter looks anyway.
  ///
  /// - Throws: ``LedgerError/unreachable(server:reason:)`` only if `timeout` ran out without a
  ///   connection (the waiter then polls, and the next wait tries again).
  @discardableResult
  public func wait(timeout: Duration) throws(LedgerError) -> Bool {
    if !connection.withLock({ $0.isOpen }) { return try relisten(within: timeout) }
    do throws(LedgerError) {
      if try heard() { return true }
    } catch {
      return try relisten(within: timeout)
    }
    let socket = connection.withLock { $0.socket }
    var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0)]
    let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    _ = poll(&fds, 2, max(0, milliseconds))
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(pipeRead, &buffer, buffer.count) > 0 {}
    do throws(LedgerError) {
      return try heard()
    } catch {
      return try relisten(within: timeout)
    }
  }

  /// Waits up to `duration` for ``interrupt()``; true when interrupted.
  func pause(_ duration: Duration) -> Bool {
    var fds = [pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0)]
    let milliseconds = Int32(clamping: duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    return poll(&fds, 1, max(0, milliseconds)) > 0
  }

  /// Wakes the waiter now (and the next wait, if none is waiting).
  public func interrupt() {
    var byte: UInt8 = 1
    _ = write(pipeWrite, &byte, 1)
  }

  /// Reads what arrived without waiting; true when it held another client's notification.
  private func heard() throws(LedgerError) -> Bool {
    let ignored = ignoredSender
    let result: Result<Bool, PostgreSQLFailure> = connection.withLock { connection in
      do throws(PostgreSQLFailure) {
        return .success(try connection.notifications().contains { $0.senderPID != ignored })
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let heard): return heard
    case .failure(let error): throw .unreachable(server: name, reason: error.description)
    }
  }
}
