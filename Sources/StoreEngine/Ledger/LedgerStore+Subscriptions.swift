extension LedgerStore {
  /// The default reads them out of ``load()``: every account's records and the launch working set.
  /// A ledger holding many accounts or chains answers it from an index on the record's account.
  public func subscriptions(account: String, statuses: Set<SubscriptionStatus>?) throws(LedgerError) -> [SubscriptionRecord] {
    try load().subscriptions.filter { $0.account == account && statuses?.contains($0.status) != false }
      .sorted { $0.originalID < $1.originalID }
  }
}
