/// What one command did: the ledger changes to commit as one batch, and the events to announce
/// once that commit succeeded, in order.
public struct StoreStep: Sendable, Equatable {
  /// Typed changes, applied in order by ``LedgerStore/commit(_:)``.
  public var changes: [LedgerChange] = []
  /// Everything to announce, in the order it happened.
  public var events: [StoreEvent] = []
  /// The transaction the command created, if any (`buy`, `resolve`, a store payment).
  public var createdTransaction: PaymentTransaction.ID?
  /// The products request the command started, if any.
  public var productsRequest: Int?

  public init() {}

  mutating func emit(_ event: StoreEvent) { events.append(event) }
}
