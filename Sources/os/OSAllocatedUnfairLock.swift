import Foundation

/// A lock that protects a state, as Apple's `os` module declares it: what StoreKit code that guards
/// its caches with `OSAllocatedUnfairLock` uses. Linux has no `os` module; this small one provides the
/// part purchase code uses (DECISIONS §40). Backed by `NSLock`.
public struct OSAllocatedUnfairLock<State>: @unchecked Sendable {
  private final class Storage: @unchecked Sendable {
    let lock = NSLock()
    var state: State
    init(_ state: State) { self.state = state }
  }

  private let storage: Storage

  public init(initialState: State) { storage = Storage(initialState) }

  /// Runs `body` with the state, the lock held.
  public func withLock<R>(_ body: @Sendable (inout State) throws -> R) rethrows -> R {
    storage.lock.lock()
    defer { storage.lock.unlock() }
    return try body(&storage.state)
  }

  /// Runs `body` with the state, the lock held; for non-Sendable bodies, as Apple's unchecked form.
  public func withLockUnchecked<R>(_ body: (inout State) throws -> R) rethrows -> R {
    storage.lock.lock()
    defer { storage.lock.unlock() }
    return try body(&storage.state)
  }
}

extension OSAllocatedUnfairLock where State == Void {
  /// A lock with no state.
  public init() { self.init(initialState: ()) }

  public func lock() { storage.lock.lock() }
  public func unlock() { storage.lock.unlock() }
  /// Locks if the lock is free; whether it did.
  public func lockIfAvailable() -> Bool { storage.lock.try() }

  /// Runs `body` with the lock held.
  public func withLock<R>(_ body: @Sendable () throws -> R) rethrows -> R {
    storage.lock.lock()
    defer { storage.lock.unlock() }
    return try body()
  }

  public func withLockUnchecked<R>(_ body: () throws -> R) rethrows -> R {
    storage.lock.lock()
    defer { storage.lock.unlock() }
    return try body()
  }
}
