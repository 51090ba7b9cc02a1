import Foundation

/// A ledger in memory, for tests and benchmarks. Same semantics as the SQLite one, no durability.
public final class InMemoryLedgerStore: LedgerStore {
  /// Everything but the outbox and mass extensions: the changes' one meaning, as a value.
  private var image: LedgerImage
  private var massExtensions: [MassExtensionKey: MassExtension] = [:]
  /// The outbox, in commit order.
  public private(set) var outbox: [ServerNotification] = []
  /// Delivery state by outbox sequence (1-based), for the entries an attempt or a redelivery touched.
  var deliveries: [Int64: OutboxEntry] = [:]
  private var nextID: UInt64 = 0
  /// How many commits were made (tests assert write-before-notify with it).
  public private(set) var commitCount = 0
  /// Makes the next commit fail, to test that a failed write changes nothing.
  public var failNextCommit: LedgerError?

  public init(_ snapshot: LedgerSnapshot = LedgerSnapshot()) {
    image = LedgerImage(snapshot)
  }

  /// Everything stored, whole history included (tests compare ledgers with it).
  public var everything: LedgerSnapshot { image.snapshot }

  public func load() throws(LedgerError) -> LedgerSnapshot {
    var snapshot = everything
    snapshot.transactions = LedgerSnapshot.workingSet(of: snapshot.transactions, subscriptions: snapshot.subscriptions)
    snapshot.askToBuyRequests.removeAll { !$0.isOpen }
    return snapshot
  }

  public func commit(_ changes: [LedgerChange]) throws(LedgerError) {
    if let failure = failNextCommit {
      failNextCommit = nil
      throw failure
    }
    let expectations = LedgerChange.ownerExpectations(in: changes)
    if !expectations.isEmpty,
      let violation = LedgerChange.violation(
        of: expectations, stored: expectations.compactMap { image.transaction($0.id) }, path: "in-memory")
    {
      throw violation
    }
    let expected = LedgerChange.deviceValueExpectations(in: changes)
    if !expected.isEmpty,
      let violation = LedgerChange.violation(of: expected, stored: image.deviceValues, path: "in-memory")
    {
      throw violation
    }
    commitCount += 1
    image.apply(changes)
    for change in changes {
      switch change {
      case .putMassExtension(let request):
        massExtensions[MassExtensionKey(productID: request.productID, requestID: request.requestID)] = request
      case .putNotification(let notification): outbox.append(notification)
      default: break  // The image has them.
      }
    }
  }

  public func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 {
    let start = max(nextID, image.largestID + 1, floor)
    nextID = start + count
    return start
  }

  public func history(account: String) throws(LedgerError) -> [PaymentTransaction] {
    image.transactions.filter { $0.account == account }
  }

  public func allTransactions() throws(LedgerError) -> [PaymentTransaction] { image.transactions }

  public func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] {
    ids.compactMap { image.transaction($0) }
  }

  public func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? {
    massExtensions[MassExtensionKey(productID: productID, requestID: requestID)]
  }

  private struct MassExtensionKey: Hashable {
    var productID: Product.ID
    var requestID: String
  }
}
