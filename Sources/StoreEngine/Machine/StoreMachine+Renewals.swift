import Foundation

extension StoreMachine {
  /// What happens when a subscription's period (or grace window, or billing retry) ends.
  mutating func renewOrExpire(_ original: PaymentTransaction.ID) throws(EngineError) {
    guard var record = subscriptionRecords[original] else { return }
    switch record.status {
    case .inGracePeriod:
      // Grace is over: entitlement is lost, billing retry goes on.
      record.status = .inBillingRetry
      record.gracePeriodExpiresDate = nil
      save(record, reason: "grace period ended")
    case .inBillingRetry:
      record.status = .expired
      record.expirationIntent = .billingError
      record.autoRenew = false
      save(record, reason: "billing retry ended")
    case .subscribed:
      let capped = timeRate.renewalCap.map { record.renewalCount >= $0 } ?? false
      if !record.autoRenew || capped {
        record.status = .expired
        record.expirationIntent = record.expirationIntent ?? (record.priceIncreasePending ? .priceIncreaseNotConsented : .customerCancelled)
        if capped { record.autoRenew = false }
        save(record, reason: capped ? "sandbox renewal limit reached" : "auto-renew off")
      } else if controls.billingRetry {
        let period = catalog.product(record.renewalProductID)?.subscription?.period ?? SubscriptionPeriod(value: 1, unit: .month)
        if controls.gracePeriod {
          record.status = .inGracePeriod
          record.gracePeriodExpiresDate = record.expiresDate.addingTimeInterval(timeRate.gracePeriod(for: period))
        } else {
          record.status = .inBillingRetry
        }
        save(record, reason: "billing issue")
      } else {
        try renew(&record, at: record.expiresDate)
      }
    case .expired, .revoked:
      return
    }
  }

  /// Delivers a renewal transaction starting at `start` and moves the record to the new period.
  mutating func renew(_ record: inout SubscriptionRecord, at start: Date) throws(EngineError) {
    guard let product = catalog.product(record.renewalProductID), let info = product.subscription,
      let first = transactions[record.originalID]
    else { return }
    // B61: a renewal bills in the customer's storefront as it is now, in its currency's units.
    let storefront = controls.storefront
    let currency = Self.currency(of: storefront)
    var renewal = PaymentTransaction(
      id: try makeTransactionID(), originalID: record.originalID, account: record.account, productID: product.id,
      productKind: .autoRenewableSubscription, state: .purchased, purchaseDate: start,
      originalPurchaseDate: first.originalPurchaseDate, price: Money.rounded(product.price, currencyCode: currency),
      currency: currency, storefront: storefront, reason: .renewal)
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
    // The record first: the renewal's signed renewal info describes the new period.
    put(record)
    step.emit(.transactionsUpdated([try put(renewal)]))
    if changed { step.emit(.subscriptionChanged(record, reason: "renewed to new product")) }
  }

  private mutating func save(_ record: SubscriptionRecord, reason: String) {
    put(record)
    step.emit(.subscriptionChanged(record, reason: reason))
  }

  /// Turns auto-renew on or off for the chain of `id`.
  mutating func setAutoRenew(_ on: Bool, for id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    record.autoRenew = on
    record.expirationIntent = on ? nil : .customerCancelled
    save(record, reason: on ? "auto-renew on" : "auto-renew off")
  }

  /// Ends the current period now (its transaction re-signed with the new expiry).
  private mutating func cutCurrentPeriod(of record: SubscriptionRecord) throws(EngineError) {
    if var current = currentTransaction(of: record), let expires = current.expiresDate, expires > now {
      current.expiresDate = now
      current.signedTransaction = nil
      step.emit(.transactionsAmended([try put(current)]))
    }
  }

  /// Expires the chain now (Xcode's "Expire"): auto-renew off, expiration = now.
  mutating func expireSubscription(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    record.autoRenew = false
    record.status = .expired
    record.expirationIntent = .customerCancelled
    record.expiresDate = now
    try cutCurrentPeriod(of: record)
    save(record, reason: "expired by tester")
  }

  /// Forces a renewal now (Xcode's "Force Renewal"): the next period starts immediately.
  mutating func forceRenewal(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    try cutCurrentPeriod(of: record)
    record.autoRenew = true
    try renew(&record, at: now)
  }

  /// Resolves a billing issue: the subscription renews now and is subscribed again.
  mutating func resolveBillingIssue(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    guard record.status == .inBillingRetry || record.status == .inGracePeriod else { throw .notInterrupted(id) }
    try renew(&record, at: now)
  }

  /// Announces a price increase; without consent the subscription expires at the period's end.
  mutating func requestPriceIncrease(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    record.priceIncreasePending = true
    save(record, reason: "price increase requested")
  }

  /// The customer answers a price increase: consent keeps renewing, declining turns auto-renew off.
  mutating func answerPriceIncrease(_ id: PaymentTransaction.ID, consent: Bool) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    record.priceIncreasePending = false
    if !consent {
      record.autoRenew = false
      record.expirationIntent = .priceIncreaseNotConsented
    }
    save(record, reason: consent ? "price increase accepted" : "price increase declined")
  }
}
