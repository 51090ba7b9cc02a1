import StoreEngine

/// Collects bus events synchronously while a step runs.
final class EventRecorder: Sendable {
  private let events = Locked<[StoreEvent]>([])
  func record(_ event: StoreEvent) { events.withLock { $0.append(event) } }
  func drain() -> [StoreEvent] { events.withLock { list in defer { list = [] }; return list } }
}
