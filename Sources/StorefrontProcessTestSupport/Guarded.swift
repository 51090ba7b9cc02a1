import Foundation

/// A value shared between threads, behind a lock. (StoreEngine's `Locked` is not used here: this
/// target depends on Foundation only.)
final class Guarded<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
