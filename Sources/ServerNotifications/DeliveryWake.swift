/// What the deliverer waits on between looks: a commit by any process, ``interrupt()``, or the
/// time-out (the fallback poll).
protocol DeliveryWake: AnyObject, Sendable {
  /// Whether a commit's event can come before the commit is visible, so looks should follow it
  /// (SQLite's WAL write); false when the event means "visible now" (PostgreSQL's `NOTIFY`).
  var followsUp: Bool { get }
  /// Blocks until an event, an interrupt or `timeout`; says whether a commit was heard.
  func wait(timeout: Duration) -> Bool
  /// Wakes the waiter now (and the next wait, if none is waiting).
  func interrupt()
}

extension DirectoryWatch: DeliveryWake {
  var followsUp: Bool { true }
}
