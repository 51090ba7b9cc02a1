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
  /// Notifications for the app's server, in the order their causes happened (also in ``changes``).
  public var notifications: [ServerNotification] = []

  public init() {}

  mutating func emit(_ event: StoreEvent) { events.append(event) }

  /// The changes with every put that a later put of the same transaction or record overwrites
  /// left out (a long advance puts its subscription record once per renewal). Puts before a
  /// history clear or a record removal are kept, so the batch means the same.
  public var compactedChanges: [LedgerChange] {
    var seenTransactions: Set<PaymentTransaction.ID> = []
    var seenRecords: Set<PaymentTransaction.ID> = []
    var seenRequests: Set<PaymentTransaction.ID> = []
    // A finish of a transaction this batch also puts is a put: the ledger does not hold the row yet.
    var putInBatch: Set<PaymentTransaction.ID> = []
    for change in changes { if case .putTransaction(let transaction) = change { putInBatch.insert(transaction.id) } }
    var kept: [LedgerChange] = []
    kept.reserveCapacity(changes.count)
    for change in changes.reversed() {
      switch change {
      case .putTransaction(let transaction):
        if !seenTransactions.insert(transaction.id).inserted { continue }
      case .finishTransaction(let transaction):
        if !seenTransactions.insert(transaction.id).inserted { continue }
        if putInBatch.contains(transaction.id) {
          kept.append(.putTransaction(transaction))
          continue
        }
      case .putSubscription(let record):
        if !seenRecords.insert(record.originalID).inserted { continue }
      case .putAskToBuyRequest(let request):
        if !seenRequests.insert(request.id).inserted { continue }
      case .clearHistory, .removeSubscription, .deleteTransaction:
        seenTransactions = []
        seenRecords = []
        seenRequests = []
      case .putAccount, .setCurrentAccount, .setClock, .putMassExtension, .putNotification, .setNotificationURL, .setDeviceValue,
        .expectOwner, .expectDeviceValue:
        break
      }
      kept.append(change)
    }
    return kept.reversed()
  }
}
