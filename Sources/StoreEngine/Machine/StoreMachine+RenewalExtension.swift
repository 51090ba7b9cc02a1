import Foundation

extension StoreMachine {
  /// Extends the chain's current period by `days` of real days (an accelerated time rate does not
  /// scale them): the record's expiry and the current transaction's `expiresDate` move, both re-signed.
  mutating func extendRenewalDate(
    _ id: PaymentTransaction.ID, days: Int, requestID: String, notifying: Bool = true
  ) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    let granted = record.renewalExtensions ?? []
    if granted.contains(where: { $0.requestID == requestID }) { return }
    if transactions[id]?.familySharedBy != nil { throw .cannotExtend(id, because: .familyShared) }
    guard record.status == .subscribed else { throw .cannotExtend(id, because: .notActive) }
    let yearAgo = now.addingTimeInterval(-365 * 86_400)
    guard granted.filter({ $0.date > yearAgo }).count < 2 else { throw .cannotExtend(id, because: .tooManyExtensions) }
    let interval = TimeInterval(days) * 86_400
    let current = currentTransaction(of: record)
    record.expiresDate = record.expiresDate.addingTimeInterval(interval)
    record.renewalExtensions = granted + [RenewalExtension(requestID: requestID, days: days, date: now)]
    // The record first: the re-signed transaction carries the renewal info of the longer period.
    record = try put(record)
    if var current, let expires = current.expiresDate {
      current.expiresDate = expires.addingTimeInterval(interval)
      current.signedTransaction = nil
      step.emit(.transactionsAmended([try put(current)]))
    }
    step.emit(.subscriptionChanged(record, reason: "renewal date extended"))
    // A mass extension announces itself once, with a summary.
    if notifying { notify(.renewalExtended, about: currentTransaction(of: record)?.id) }
  }
}
