import Foundation

/// A value guarded by a lock: the one way shared mutable state is protected in this project.
///
/// It wraps `NSLock` (a pthread mutex on Linux) rather than `Synchronization.Mutex`, because
/// ThreadSanitizer cannot see the futex that `Mutex` falls back to under contention and then
/// reports races that are not there; a pthread mutex is intercepted, so its reports stay real.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Guards `value`.
  public init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value and returns what it returns.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
