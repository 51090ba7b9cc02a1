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
      try save(record, reason: "grace period ended")
      notify(.gracePeriodExpired, about: currentTransaction(of: record)?.id)
    case .inBillingRetry:
      record.status = .expired
      record.expirationIntent = .billingError
      record.autoRenew = false
      try save(record, reason: "billing retry ended")
      notify(.expired, .billingRetry, about: currentTransaction(of: record)?.id)
    case .subscribed:
      let capped = timeRate.renewalCap.map { record.renewalCount >= $0 } ?? false
      // §43: a commitment with payments left is billed whatever auto-renew says (the customer
      // committed to twelve payments); a price increase waits for the next commitment.
      let committed = isCommitted(record)
      if capped || (!committed && (!record.autoRenew || record.priceIncreasePending)) {
        // B48: an increase that needs consent and got none ends the subscription.
        let intent: RenewalInfo.ExpirationIntent =
          record.priceIncreasePending ? .priceIncreaseNotConsented : record.expirationIntent ?? .customerCancelled
        record.status = .expired
        record.expirationIntent = record.autoRenew ? intent : record.expirationIntent ?? intent
        record.autoRenew = false
        let reason =
          capped ? "sandbox renewal limit reached" : record.priceIncreasePending ? "price increase not consented" : "auto-renew off"
        try save(record, reason: reason)
        notify(.expired, Self.expirySubtype(record.expirationIntent), about: currentTransaction(of: record)?.id)
      } else if controls.billingRetry {
        let period = catalog.product(record.renewalProductID)?.subscription?.period ?? SubscriptionPeriod(value: 1, unit: .month)
        if controls.gracePeriod {
          record.status = .inGracePeriod
          record.gracePeriodExpiresDate = record.expiresDate.addingTimeInterval(timeRate.gracePeriod(for: period))
        } else {
          record.status = .inBillingRetry
        }
        try save(record, reason: "billing issue")
        notify(.didFailToRenew, record.status == .inGracePeriod ? .gracePeriod : nil, about: currentTransaction(of: record)?.id)
      } else {
        try renew(&record, at: record.expiresDate)
      }
    case .expired, .revoked:
      return
    }
  }

  /// Delivers a renewal transaction starting at `start` and moves the record to the new period.
  mutating func renew(_ record: inout SubscriptionRecord, at start: Date) throws(EngineError) {
    // Inside a commitment the current product goes on; a plan change waits for its end (§43).
    let committed = isCommitted(record)
    guard let product = catalog.product(committed ? record.productID : record.renewalProductID), let info = product.subscription
    else { return }
    let previous = currentTransaction(of: record)
    let recovering = record.status == .inBillingRetry || record.status == .inGracePeriod
    let statusChanges = record.status != .subscribed
    // A plan change already dropped the old product's price increase; one requested since is the
    // new product's. A pending offer of the old product finds no catalog offer below and ends.
    let changed = record.productID != product.id
    // Renewals bill in the storefront the customer is in now (B61).
    let storefront = controls.storefront
    var renewal = PaymentTransaction(
      id: try makeTransactionID(), originalID: record.originalID, account: record.account, productID: product.id,
      productKind: .autoRenewableSubscription, state: .purchased, purchaseDate: start,
      originalPurchaseDate: firstPurchaseDate(of: record) ?? start,
      price: Money.rounded(record.increasedPrice ?? product.price, currencyCode: Self.currency(of: storefront)),
      currency: Self.currency(of: storefront), storefront: storefront, reason: .renewal)
    renewal.subscriptionGroupID = info.groupID
    renewal.webOrderLineItemID = makeLineItemID()
    renewal.expiresDate = timeRate.end(of: info.period, from: start)
    // `applicationUsername` belongs to the app's payment, which a renewal has none of.
    renewal.appAccountToken = previous?.appAccountToken ?? transactions[record.originalID]?.appAccountToken
    // Renewals go to the queue of the app that subscribed, whichever process advances the clock.
    renewal.appBundleID = previous?.appBundleID ?? transactions[record.originalID]?.appBundleID
    if var pending = record.renewalOffer, let offer = catalogOffer(pending, of: product.id) {
      // B33: the next period of a pay-as-you-go offer, at the offer price.
      apply(offer, to: &renewal)
      renewal.price = offer.paymentMode == .freeTrial ? 0 : offer.price
      let times = offer.paymentMode == .freeTrial ? offer.numberOfPeriods : 1
      renewal.expiresDate = timeRate.end(of: offer.period, from: start, times: times)
      pending.remainingPeriods -= 1
      record.renewalOffer = pending.remainingPeriods > 0 ? pending : nil
    } else {
      record.renewalOffer = nil
      if committed || record.billingPlanType == BillingPlan.monthly {
        // The next monthly payment of the commitment, or the first of a new one.
        record.commitment = billMonthly(&renewal, product: product, from: start, continuing: committed ? record.commitment : nil)
      }
    }
    if renewal.commitment == nil { record.commitment = nil }
    if record.priceIncreaseStatus == .consented { record.priceIncreaseStatus = nil }
    record.productID = product.id
    record.expiresDate = renewal.expiresDate ?? start
    record.webOrderLineItemID = renewal.webOrderLineItemID ?? 0
    record.currentTransactionID = renewal.id
    record.renewalCount += 1
    record.status = .subscribed
    record.gracePeriodExpiresDate = nil
    record.expirationIntent = nil
    // The record first: the renewal's signed renewal info describes the new period.
    record = try put(record)
    let stored = try put(renewal)
    // §47: a bundle's renewal renews its components with it.
    step.emit(.transactionsUpdated([stored] + (try deliverComponents(of: stored, product: product))))
    if changed {
      step.emit(.subscriptionChanged(record, reason: "renewed to new product"))
    } else if statusChanges {
      // N4: back to subscribed (after an expiry, a refund or a billing issue) is a status change,
      // which `Product.SubscriptionInfo.Status.updates` announces.
      step.emit(.subscriptionChanged(record, reason: recovering ? "billing recovered" : "renewed after it ended"))
    }
    notify(.didRenew, recovering ? .billingRecovery : nil, about: renewal.id)
  }

  private mutating func save(_ record: SubscriptionRecord, reason: String) throws(EngineError) {
    step.emit(.subscriptionChanged(try put(record), reason: reason))
  }

  /// Turns auto-renew on or off for the chain of `id`.
  mutating func setAutoRenew(_ on: Bool, for id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    record.autoRenew = on
    record.expirationIntent = on ? nil : .customerCancelled
    try save(record, reason: on ? "auto-renew on" : "auto-renew off")
    notify(.didChangeRenewalStatus, on ? .autoRenewEnabled : .autoRenewDisabled, about: currentTransaction(of: record)?.id)
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
    try save(record, reason: "expired by tester")
    notify(.expired, .voluntary, about: currentTransaction(of: record)?.id)
  }

  /// Forces a renewal now (Xcode's "Force Renewal"): the next period starts immediately, auto-renew
  /// is on again, and after an expiry (B43) the chain is subscribed with no `expirationIntent`.
  mutating func forceRenewal(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    try cutCurrentPeriod(of: record)
    if record.status == .expired || record.status == .revoked { record.recentStartDate = recentStart(of: record, resumingAt: now) }
    record.autoRenew = true
    record.priceIncreasePending = false
    try renew(&record, at: now)
  }

  /// Resolves a billing issue: the subscription renews and is subscribed again. Inside the grace
  /// period the paid days are not interrupted: the new period starts at the missed renewal date.
  mutating func resolveBillingIssue(_ id: PaymentTransaction.ID) throws(EngineError) {
    var record = try subscriptionRecord(for: id)
    guard record.status == .inBillingRetry || record.status == .inGracePeriod else { throw .notInterrupted(id) }
    try renew(&record, at: record.status == .inGracePeriod ? record.expiresDate : now)
  }

  /// Announces a price increase to `price` (default: 20 % more, to the cent) that waits for the
  /// customer's consent (B48); without it the subscription expires at the period's end.
  mutating func requestPriceIncrease(_ id: PaymentTransaction.ID, to price: Decimal?) throws(EngineError) {
    var record = try activeRecord(for: id)
    let current = record.increasedPrice ?? catalog.product(record.renewalProductID)?.price ?? 0
    record.increasedPrice = price ?? Self.defaultIncrease(of: current)
    record.priceIncreasePending = true
    record.priceIncreaseStatus = .notResponded
    try save(record, reason: "price increase requested")
    notify(.priceIncrease, .pending, about: currentTransaction(of: record)?.id)
  }

  /// The chain of `id`, refused (N7) when it has ended: a price increase is for active subscribers.
  private func activeRecord(for id: PaymentTransaction.ID) throws(EngineError) -> SubscriptionRecord {
    let record = try subscriptionRecord(for: id)
    guard record.status != .expired, record.status != .revoked else { throw .subscriptionEnded(id) }
    return record
  }

  /// 20 % more, rounded to the cent: the price a `price-increase … request` without a price moves to.
  static func defaultIncrease(of price: Decimal) -> Decimal {
    var raised = price * 12 / 10
    var rounded = Decimal()
    NSDecimalRound(&rounded, &raised, 2, .plain)
    return rounded
  }

  /// The customer answers a price increase: consent renews at the new price, declining turns
  /// auto-renew off (the subscription expires with `didNotConsentToPriceIncrease`).
  mutating func answerPriceIncrease(_ id: PaymentTransaction.ID, consent: Bool) throws(EngineError) {
    var record = try activeRecord(for: id)
    record.priceIncreasePending = false
    if consent {
      record.priceIncreaseStatus = .consented
    } else {
      record.autoRenew = false
      record.expirationIntent = .priceIncreaseNotConsented
    }
    try save(record, reason: consent ? "price increase accepted" : "price increase declined")
    // Apple's table: consent is PRICE_INCREASE/ACCEPTED; cancelling after the notice has no subtype.
    notify(consent ? .priceIncrease : .didChangeRenewalStatus, consent ? .accepted : nil, about: currentTransaction(of: record)?.id)
  }
}
