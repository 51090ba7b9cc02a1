import Dispatch

/// A typed, in-process, NotificationCenter-like bus.
///
/// Subscribe to one event type and get a ``Subscription`` token; the subscription ends when the token
/// is cancelled or deallocated. Events reach each subscriber in posting order, on the executor it chose:
/// ``Executor/immediate`` (the poster's thread, synchronously) or a serial `DispatchQueue` (the TUI's
/// main queue). Subscribers are called in subscription order.
public final class EventBus: Sendable {
  /// Where a subscriber's handler runs.
  public enum Executor: Sendable {
    case immediate
    case queue(DispatchQueue)
  }

  /// A handler kept with its event type, so posting calls it without boxing the event or casting it
  /// dynamically: the lists are keyed by `E`'s type, so the downcast below cannot fail.
  private final class Box<E>: Sendable {
    let handler: @Sendable (E) -> Void
    init(_ handler: @escaping @Sendable (E) -> Void) { self.handler = handler }
  }

  private struct Entry: Sendable {
    let id: UInt64
    let executor: Executor
    let box: AnyObject & Sendable
  }

  private struct State {
    var nextID: UInt64 = 1
    var entries: [ObjectIdentifier: [Entry]] = [:]
  }

  private let state = Locked(State())

  public init() {}

  /// Calls `handler` with every `E` posted from now on, until the returned token goes away.
  public func subscribe<E: Sendable>(
    _ type: E.Type, on executor: Executor = .immediate, _ handler: @escaping @Sendable (E) -> Void
  ) -> Subscription {
    let key = ObjectIdentifier(type)
    let id = state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.entries[key, default: []].append(Entry(id: id, executor: executor, box: Box(handler)))
      return id
    }
    return Subscription { [weak self] in self?.unsubscribe(key: key, id: id) }
  }

  /// Delivers `event` to every subscriber of its type.
  public func post<E: Sendable>(_ event: E) {
    guard let entries = state.withLock({ $0.entries[ObjectIdentifier(E.self)] }) else { return }
    for entry in entries {
      let box = unsafeDowncast(entry.box, to: Box<E>.self)
      switch entry.executor {
      case .immediate: box.handler(event)
      case .queue(let queue): queue.async { box.handler(event) }
      }
    }
  }

  /// How many subscribers `E` has (for tests).
  public func subscriberCount<E>(for type: E.Type) -> Int {
    state.withLock { $0.entries[ObjectIdentifier(type)]?.count ?? 0 }
  }

  private func unsubscribe(key: ObjectIdentifier, id: UInt64) {
    state.withLock { state in
      state.entries[key]?.removeAll { $0.id == id }
      if state.entries[key]?.isEmpty == true { state.entries[key] = nil }
    }
  }
}

/// A bus subscription; cancelled explicitly or when deallocated.
public final class Subscription: Sendable {
  private let cancelAction: Locked<(@Sendable () -> Void)?>

  init(_ cancel: @escaping @Sendable () -> Void) {
    cancelAction = Locked(cancel)
  }

  /// Ends the subscription; later posts no longer reach the handler. Idempotent.
  public func cancel() {
    let action = cancelAction.withLock { action -> (@Sendable () -> Void)? in
      defer { action = nil }
      return action
    }
    action?()
  }

  deinit { cancel() }
}
