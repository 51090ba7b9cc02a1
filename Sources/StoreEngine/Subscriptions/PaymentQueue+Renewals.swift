import Foundation

extension PaymentQueue {
  /// What happens when a subscription's period (or grace window, or billing retry) ends.
  func renewOrExpire(_ original: PaymentTransaction.ID) throws(EngineError) {
    guard var record = subscriptionRecords[original] else { return }
    switch record.status {
    case .inGracePeriod:
      // Grace is over: entitlement is lost, billing retry goes on.
      record.status = .inBillingRetry
      record.gracePeriodExpiresDate = nil
      try save(record, status: .inBillingRetry, reason: "grace period ended")
    case .inBillingRetry:
      record.status = .expired
      record.expirationIntent = 2
      record.autoRenew = false
      try save(record, status: .expired, reason: "billing retry ended")
    case .subscribed:
      let capped = timeRate.renewalCap.map { record.renewalCount >= $0 } ?? false
      if !record.autoRenew || capped {
        record.status = .expired
        record.expirationIntent = record.expirationIntent ?? (record.priceIncreasePending ? 3 : 1)
        if capped { record.autoRenew = false }
        try save(record, status: .expired, reason: capped ? "sandbox renewal limit reached" : "auto-renew off")
      } else if controls.billingRetry {
        let period = catalog.product(record.renewalProductID)?.subscription?.period ?? SubscriptionPeriod(value: 1, unit: .month)
        if controls.gracePeriod {
          record.status = .inGracePeriod
          record.gracePeriodExpiresDate = record.expiresDate.addingTimeInterval(timeRate.gracePeriod(for: period))
          try save(record, status: .inGracePeriod, reason: "billing issue")
        } else {
          record.status = .inBillingRetry
          try save(record, status: .inBillingRetry, reason: "billing issue")
        }
      } else {
        try renew(&record, at: record.expiresDate)
      }
    case .expired, .revoked:
      return
    }
  }

  /// Delivers a renewal transaction starting at `start` and moves the record to the new period.
  func renew(_ record: inout SubscriptionRecord, at start: Date) throws(EngineError) {
    guard let product = catalog.product(record.renewalProductID), let info = product.subscription,
      let first = transactions[record.originalID]
    else { return }
    var renewal = PaymentTransaction(
      id: try makeTransactionID(), originalID: record.originalID, account: record.account, productID: product.id,
      productKind: .autoRenewableSubscription, state: .purchased, purchaseDate: start,
      originalPurchaseDate: first.originalPurchaseDate, price: product.price,
      currency: (Storefront.lookup(first.storefront)?.currencyCode ?? "USD"), storefront: first.storefront, reason: .renewal)
    renewal.subscriptionGroupID = info.groupID
    renewal.webOrderLineItemID = makeLineItemID()
    renewal.expiresDate = timeRate.end(of: info.period, from: start)
    renewal.applicationUsername = first.applicationUsername
    renewal.appAccountToken = first.appAccountToken
    let changed = record.productID != product.id
    record.productID = product.id
    record.expiresDate = renewal.expiresDate ?? start
    record.renewalCount += 1
    record.status = .subscribed
    record.gracePeriodExpiresDate = nil
    record.priceIncreasePending = false
    let saved = try commit([renewal], extra: [put(record)])
    var events: [StoreEvent] = [.transactionsUpdated(saved)]
    if changed {
      events.append(.subscriptionStatusChanged(
        product: product.id, original: record.originalID, status: .subscribed, reason: "renewed to new product"))
    }
    emit(events)
  }

  private func save(_ record: SubscriptionRecord, status: SubscriptionStatus, reason: String) throws(EngineError) {
    try commit([], extra: [put(record)])
    emit([.subscriptionStatusChanged(product: record.productID, original: record.originalID, status: status, reason: reason)])
  }

  /// The subscription chain a transaction belongs to.
  public func subscriptionRecord(for id: PaymentTransaction.ID) throws(EngineError) -> SubscriptionRecord {
    guard let transaction = transactions[id] else { throw misuse(.unknownTransaction(id.description)) }
    guard let record = subscriptionRecords[transaction.originalID] else {
      throw misuse(.notSubscription(id))
    }
    return record
  }

  /// Turns auto-renew on or off for the chain of `id`.
  public func setAutoRenew(_ on: Bool, for id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    record.autoRenew = on
    record.expirationIntent = on ? nil : 1
    try save(record, status: record.status, reason: on ? "auto-renew on" : "auto-renew off")
  }

  /// Expires the chain now (Xcode's "Expire"): auto-renew off, expiration = now.
  public func expireSubscription(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    record.autoRenew = false
    record.status = .expired
    record.expirationIntent = 1
    record.expiresDate = now
    if var current = currentTransaction(of: record), let expires = current.expiresDate, expires > now {
      current.expiresDate = now
      current.signedTransaction = nil
      try commit([current])
    }
    try save(record, status: .expired, reason: "expired by tester")
  }

  /// Forces a renewal now (Xcode's "Force Renewal"): the next period starts immediately.
  public func forceRenewal(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    if var current = currentTransaction(of: record), let expires = current.expiresDate, expires > now {
      current.expiresDate = now
      current.signedTransaction = nil
      try commit([current])
    }
    record.autoRenew = true
    try renew(&record, at: now)
  }

  /// Resolves a billing issue: the subscription renews now and is subscribed again.
  public func resolveBillingIssue(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    guard record.status == .inBillingRetry || record.status == .inGracePeriod else {
      throw misuse(.notInterrupted(id))
    }
    try renew(&record, at: now)
  }

  /// Announces a price increase; without consent the subscription expires at the period's end.
  public func requestPriceIncrease(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    record.priceIncreasePending = true
    try save(record, status: record.status, reason: "price increase requested")
  }

  /// The customer answers a price increase: consent keeps renewing, declining turns auto-renew off.
  public func answerPriceIncrease(_ id: PaymentTransaction.ID, consent: Bool) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    record.priceIncreasePending = false
    if !consent {
      record.autoRenew = false
      record.expirationIntent = 3
    }
    try save(record, status: record.status, reason: consent ? "price increase accepted" : "price increase declined")
  }
}
