import Foundation

extension PaymentQueue {
  /// Renewal records of the account (default: signed-in), by original transaction id.
  public func subscriptions(account: String? = nil) -> [SubscriptionRecord] {
    guard let name = account ?? currentAccount else { return [] }
    return subscriptionRecords.values.filter { $0.account == name }.sorted { $0.originalID < $1.originalID }
  }

  /// The chain of `group` that is active (not expired or revoked) for `account`.
  func activeSubscription(group: String, account: String) -> SubscriptionRecord? {
    subscriptionRecords.values.first {
      $0.account == account && $0.groupID == group && $0.status != .expired && $0.status != .revoked
    }
  }

  /// Whether `account` may still use an introductory offer in `group` (once per group per account).
  public func isEligibleForIntroOffer(group: String, account: String) -> Bool {
    !history(account: account).contains {
      $0.subscriptionGroupID == group && ($0.state == .purchased || $0.state == .restored)
    }
  }

  /// Sets dates, offer and chain for a new subscription purchase; handles upgrades and downgrades.
  func startSubscription(_ transaction: inout PaymentTransaction, product: Product, extra: inout [LedgerChange]) throws(EngineError) {
    guard let info = product.subscription else { return }
    let account = transaction.account
    if var active = activeSubscription(group: info.groupID, account: account) {
      transaction.originalID = active.originalID
      transaction.originalPurchaseDate = transactions[active.originalID]?.originalPurchaseDate ?? transaction.purchaseDate
      transaction.webOrderLineItemID = active.webOrderLineItemID
      let currentLevel = catalog.product(active.productID)?.subscription?.level ?? info.level
      if active.productID == product.id {
        // Already subscribed: nothing is charged; the current period stands.
        transaction.price = 0
        transaction.expiresDate = active.expiresDate
        active.renewalProductID = product.id
        active.autoRenew = true
      } else if info.level < currentLevel {
        // Upgrade: takes effect now; the old period is marked upgraded (refunded pro rata by the store).
        if var old = currentTransaction(of: active) {
          old.isUpgraded = true
          old.signedTransaction = nil
          try commit([old])
        }
        transaction.expiresDate = timeRate.end(of: info.period, from: now)
        active.productID = product.id
        active.renewalProductID = product.id
        active.expiresDate = transaction.expiresDate ?? now
        active.autoRenew = true
      } else {
        // Downgrade or crossgrade: billed at the next renewal; no entitlement change until then.
        transaction.price = 0
        transaction.expiresDate = nil
        active.renewalProductID = product.id
        active.autoRenew = true
      }
      extra.append(put(active))
      return
    }
    transaction.webOrderLineItemID = makeLineItemID()
    var length = timeRate.end(of: info.period, from: now)
    if let intro = info.introductoryOffer, isEligibleForIntroOffer(group: info.groupID, account: account),
      transaction.offerID == nil
    {
      apply(intro, to: &transaction, base: product.price)
      length = timeRate.end(of: intro.period, from: now, times: intro.paymentMode == .payUpFront ? 1 : intro.numberOfPeriods)
    } else if let offerID = transaction.offerID,
      let offer = (info.promotionalOffers + info.codeOffers + info.winBackOffers).first(where: { $0.id == offerID })
    {
      apply(offer, to: &transaction, base: product.price)
      length = timeRate.end(of: offer.period, from: now, times: offer.paymentMode == .payUpFront ? 1 : offer.numberOfPeriods)
    }
    transaction.expiresDate = length
    let record = SubscriptionRecord(
      originalID: transaction.originalID, account: account, groupID: info.groupID, productID: product.id,
      renewalProductID: product.id, autoRenew: true, status: .subscribed, expiresDate: length, renewalCount: 0,
      gracePeriodExpiresDate: nil, expirationIntent: nil, priceIncreasePending: false,
      webOrderLineItemID: transaction.webOrderLineItemID ?? 0)
    extra.append(put(record))
    pendingStatusEvents.append(.subscriptionStatusChanged(
      product: product.id, original: transaction.originalID, status: .subscribed, reason: "purchased"))
  }

  private func apply(_ offer: SubscriptionOffer, to transaction: inout PaymentTransaction, base: Decimal) {
    transaction.offerType = offer.kind
    transaction.offerID = offer.kind == .introductory ? nil : offer.id
    transaction.offerPaymentMode = offer.paymentMode
    transaction.price = offer.paymentMode == .freeTrial ? 0 : offer.price
  }

  /// Stages `record` for the next ``commit(_:extra:)``; memory changes only when that commit succeeds.
  func put(_ record: SubscriptionRecord) -> LedgerChange {
    stagedRecords.append(record)
    let data = (try? Self.recordEncoder.encode(record)) ?? Data()
    return .putValue(key: SubscriptionRecord.key(record.originalID), value: String(decoding: data, as: UTF8.self))
  }

  func currentTransaction(of record: SubscriptionRecord) -> PaymentTransaction? {
    history(account: record.account).last { $0.originalID == record.originalID && $0.state == .purchased && $0.expiresDate != nil }
  }

  func makeLineItemID() -> UInt64 {
    // Line-item ids live in their own range so they never collide with transaction ids.
    nextLineItemID += 1
    return 1_000_000_000 + nextLineItemID
  }

  static let recordEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .millisecondsSince1970
    return encoder
  }()

  static let recordDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    return decoder
  }()
}
