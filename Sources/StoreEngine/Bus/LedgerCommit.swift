/// Changes that are now durable in the ledger, as the bus carries them to the views.
///
/// Posted by ``PaymentQueue`` after each of its own commits (before the step's ``StoreEvent``s, so
/// a view's read model is current when the events arrive) and after ``PaymentQueue/refresh()``
/// read what other processes committed. Views apply ``changes`` to their ``LedgerImage``; events
/// stay for what the app is told.
public struct LedgerCommit: Sendable, Equatable {
  /// Who made the changes.
  public enum Origin: Sendable, Equatable {
    /// A step of this process's payment queue.
    case thisProcess
    /// Another process (or host) on the same ledger, read from the change feed.
    case otherProcess
  }

  public var changes: [LedgerChange]
  public var origin: Origin
  /// The ledger's present, when this process fell behind the trimmed commit log and read it anew
  /// (``LedgerChanges/startOver``): a view replaces its read model with it instead of applying changes.
  public var present: LedgerSnapshot?

  public init(_ changes: [LedgerChange], origin: Origin, present: LedgerSnapshot? = nil) {
    self.changes = changes
    self.origin = origin
    self.present = present
  }
}
