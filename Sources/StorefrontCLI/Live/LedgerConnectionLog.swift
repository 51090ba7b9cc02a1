import Foundation
import StoreEngine

/// The command line's account of a shared ledger's connection (DECISIONS §27): one line on
/// standard error per reconnect attempt, and one when it is back.
///
/// ```
/// storefront: the ledger postgresql://qa@db:5432/sandbox is unreachable (…); reconnecting (attempt 3, next in 0.4 s)
/// storefront: the ledger postgresql://qa@db:5432/sandbox is back; reconnected after 3 attempts
/// ```
final class LedgerConnectionLog: @unchecked Sendable {
  // @unchecked: `io` and `attempts` are only used under `lock`.
  private let io: any ConsoleIO
  private let name: String
  private let lock = NSLock()
  private var attempts = 0

  /// Lines about the ledger `name` (no password) go to `io`'s standard error.
  init(io: any ConsoleIO, name: String) {
    self.io = io
    self.name = name
  }

  func report(_ state: LedgerConnectionState) {
    lock.lock()
    defer { lock.unlock() }
    if let line = line(for: state) { io.errorLine(line) }
  }

  /// Another problem with the ledger's connection (a session lock that could not be taken again).
  func problem(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    io.errorLine("storefront: \(text)")
  }

  private func line(for state: LedgerConnectionState) -> String? {
    switch state {
    case .reconnecting(let attempt, let nextIn, let lastError):
      attempts = attempt
      return "storefront: the ledger \(name) is unreachable (\(lastError)); reconnecting (attempt \(attempt), next in \(Self.seconds(nextIn)))"
    case .connected:
      guard attempts > 0 else { return nil }
      defer { attempts = 0 }
      return "storefront: the ledger \(name) is back; reconnected after \(attempts) attempt\(attempts == 1 ? "" : "s")"
    case .gaveUp(let count, let lastError):
      return "storefront: the ledger \(name) is still unreachable after \(count) attempt\(count == 1 ? "" : "s") (\(lastError)); giving up"
    }
  }

  private static func seconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return String(format: "%.1f s", value)
  }
}
