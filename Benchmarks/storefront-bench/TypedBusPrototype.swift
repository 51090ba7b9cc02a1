import Dispatch
import StoreEngine
import Synchronization

/// A prototype of the change proposed for `Sources/StoreEngine/Bus/EventBus.swift`, measured next to
/// it so the expected gain is a number: each subscriber's handler is kept in a `Box<E>` and called
/// as `(E) -> Void` after an `unsafeDowncast` (the entry list is keyed by `E`'s type, so the cast
/// cannot fail), instead of converting the event to `any Sendable` (an allocation when the enum is
/// larger than an existential's inline buffer) and `as? E` (a runtime dynamic cast) per subscriber.
/// Same API shape and semantics otherwise (lock, snapshot of the list, executors).
final class TypedBusPrototype: Sendable {
  private final class Box<E>: Sendable {
    let handler: @Sendable (E) -> Void
    init(_ handler: @escaping @Sendable (E) -> Void) { self.handler = handler }
  }

  private struct Entry: Sendable {
    let id: UInt64
    let executor: EventBus.Executor
    let box: AnyObject & Sendable
  }

  private struct State {
    var nextID: UInt64 = 1
    var entries: [ObjectIdentifier: [Entry]] = [:]
  }

  private let state = Mutex(State())

  func subscribe<E: Sendable>(_ type: E.Type, on executor: EventBus.Executor = .immediate, _ handler: @escaping @Sendable (E) -> Void) -> UInt64 {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.entries[ObjectIdentifier(type), default: []].append(Entry(id: id, executor: executor, box: Box(handler)))
      return id
    }
  }

  func post<E: Sendable>(_ event: E) {
    guard let entries = state.withLock({ $0.entries[ObjectIdentifier(E.self)] }) else { return }
    for entry in entries {
      let box = unsafeDowncast(entry.box, to: Box<E>.self)
      switch entry.executor {
      case .immediate: box.handler(event)
      case .queue(let queue): queue.async { box.handler(event) }
      }
    }
  }
}
