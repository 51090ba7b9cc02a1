import Foundation

/// A source of values over time, reduced to what purchase code subscribes with: `sink`.
public protocol Publisher<Output, Failure> {
  associatedtype Output
  associatedtype Failure: Error
  /// Calls `receive` with each value from now on, until the returned token is cancelled or released.
  func _subscribe(_ receive: @escaping (Output) -> Void) -> AnyCancellable
}

extension Publisher where Failure == Never {
  /// Calls `receiveValue` with each value, until the returned token is cancelled or released.
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable { _subscribe(receiveValue) }
}

/// Something that can be cancelled.
public protocol Cancellable {
  func cancel()
}

/// A token that cancels its subscription when cancelled or released.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  private let lock = NSLock()
  private var onCancel: (() -> Void)?

  public init(_ cancel: @escaping () -> Void) { onCancel = cancel }

  public func cancel() {
    lock.lock()
    let run = onCancel
    onCancel = nil
    lock.unlock()
    run?()
  }

  /// Keeps the token in `set` (the subscription lasts as long as the set keeps it).
  public func store(in set: inout Set<AnyCancellable>) { set.insert(self) }

  deinit { cancel() }

  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The subscribers of one publisher, called in the order they subscribed.
final class Subject<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var receivers: [Int: (Value) -> Void] = [:]
  private var next = 0

  func subscribe(_ receive: @escaping (Value) -> Void) -> AnyCancellable {
    lock.lock()
    let id = next
    next += 1
    receivers[id] = receive
    lock.unlock()
    return AnyCancellable { [weak self] in
      guard let self else { return }
      self.lock.lock()
      self.receivers[id] = nil
      self.lock.unlock()
    }
  }

  func send(_ value: Value) {
    lock.lock()
    let current = receivers.sorted { $0.key < $1.key }.map(\.value)
    lock.unlock()
    for receive in current { receive(value) }
  }
}
