extension StoreEvent {
  /// The event as the app hears it while `account` is signed in (nil: signed out), or nil when it
  /// concerns only another account (N6): the payment queue and `Transaction.updates` deliver the
  /// signed-in Apple Account's transactions, so another account's renewal, refund or family copy
  /// stays in the ledger (and the tester's views) until that account is back and the app launches.
  /// A transaction with no account yet (a purchase waiting for sign-in) is the app's own.
  public func heard(by account: String?) -> StoreEvent? {
    func ours(_ transaction: PaymentTransaction) -> Bool { transaction.account.isEmpty || transaction.account == account }
    switch self {
    case .transactionsUpdated(let list):
      let kept = list.filter(ours)
      return kept.isEmpty ? nil : .transactionsUpdated(kept)
    case .transactionsRemoved(let list):
      let kept = list.filter(ours)
      return kept.isEmpty ? nil : .transactionsRemoved(kept)
    case .transactionRevoked(let transaction):
      return ours(transaction) ? self : nil
    case .subscriptionChanged(let record, _):
      return record.account == account ? self : nil
    default:
      return self
    }
  }
}
