import Foundation

extension StoreMachine {
  /// The App Store Server API's Set App Account Token: the purchase `id` (an original transaction)
  /// carries `token` from now on, re-signed. For a subscription the current period carries it too,
  /// and so its renewal info and every later renewal; earlier renewals keep what they were signed with.
  mutating func setAppAccountToken(_ id: PaymentTransaction.ID, token: String) throws(EngineError) {
    guard var original = transactions[id] else { throw .unknownTransaction(id.description) }
    var changed: [PaymentTransaction] = []
    if let record = subscriptionRecords[original.originalID], var current = currentTransaction(of: record), current.id != id {
      current.appAccountToken = token
      current.signedTransaction = nil
      // In memory first, so the record's renewal info is signed with the new token.
      remember(current)
      try put(record)
      changed.append(try put(current))
    }
    original.appAccountToken = token
    original.signedTransaction = nil
    if let record = subscriptionRecords[original.originalID], currentTransaction(of: record)?.id == id {
      remember(original)
      try put(record)
    }
    changed.insert(try put(original), at: 0)
    step.emit(.transactionsAmended(changed))
  }
}
