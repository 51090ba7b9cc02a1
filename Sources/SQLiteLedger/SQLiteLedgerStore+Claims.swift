import Foundation
import StoreEngine

extension SQLiteLedgerStore {
  /// Hands transaction `id` to `session` if it is still unfinished, `purchasing` and owned by
  /// `expectedOwner`, in one `BEGIN IMMEDIATE` transaction: of two processes claiming it at once,
  /// the second sees the first's owner and gets nil.
  ///
  /// - Throws: ``LedgerError/corrupt(path:reason:)`` when the stored transaction can't be decoded,
  ///   and the errors of ``commit(_:)``.
  public func claimPurchase(
    _ id: PaymentTransaction.ID, from expectedOwner: String?, for session: String
  ) throws(LedgerError) -> PaymentTransaction? {
    guard !options.readOnly else { throw .readOnly(path: path) }
    let statements = try preparedStatements()
    var json: StoredTransactionRow?
    do {
      try statements.begin.run()
      let select = statements.selectTransactionJSON
      try select.bind(Int64(bitPattern: id.rawValue), at: 1)
      try select.forEachRow { row in json = row.storedTransaction(at: 0) }
    } catch {
      if !connection.isAutocommit { try? statements.rollback.run() }
      throw LedgerError(error, path: path, while: .writing)
    }
    // Every early return below must end the write transaction it holds.
    defer { if !connection.isAutocommit { try? statements.rollback.run() } }
    guard let json else { return nil }
    guard var claimed = decodeTransaction(json) else {
      throw .corrupt(path: path, reason: "the stored transaction \(id) could not be decoded")
    }
    guard claimed.state == .purchasing, !claimed.isFinished, claimed.ownerSession == expectedOwner else {
      return nil
    }
    claimed.ownerSession = session
    let encoded = try encode([.putTransaction(claimed)])
    do {
      let logged = try apply(encoded, logging: [.putTransaction(claimed)], with: statements)
      try statements.commit.run()
      if let logged { ownCommits.insert(logged) }
    } catch {
      throw LedgerError(error, path: path, while: .writing)
    }
    return claimed
  }
}
