import Foundation

extension StoreMachine {
  /// How buying an auto-renewable product plays out for an account, decided in one place so that
  /// the sheet's price and the charge agree.
  struct SubscriptionPlan {
    enum Kind {
      /// No active chain in the group: a new subscription, with `offer` if one applies.
      case new(offer: SubscriptionOffer?)
      /// Already subscribed to this product: nothing is charged; the current period stands.
      case sameProduct(SubscriptionRecord)
      /// A higher level: takes effect now, the old period is marked upgraded.
      case upgrade(SubscriptionRecord)
      /// A downgrade or crossgrade: billed at the next renewal.
      case change(SubscriptionRecord)
    }
    var kind: Kind
    var price: Decimal
  }

  func subscriptionPlan(for product: Product, info: SubscriptionInfo, account: String, offerID: String?) -> SubscriptionPlan {
    if let active = activeSubscription(group: info.groupID, account: account) {
      let currentLevel = catalog.product(active.productID)?.subscription?.level ?? info.level
      if active.productID == product.id { return SubscriptionPlan(kind: .sameProduct(active), price: 0) }
      if info.level < currentLevel { return SubscriptionPlan(kind: .upgrade(active), price: product.price) }
      return SubscriptionPlan(kind: .change(active), price: 0)
    }
    var offer: SubscriptionOffer?
    if let intro = info.introductoryOffer, offerID == nil, isEligibleForIntroOffer(group: info.groupID, account: account) {
      offer = intro
    } else if let offerID {
      offer = (info.promotionalOffers + info.codeOffers + info.winBackOffers).first { $0.id == offerID }
    }
    let price = offer.map { $0.paymentMode == .freeTrial ? 0 : $0.price } ?? product.price
    return SubscriptionPlan(kind: .new(offer: offer), price: price)
  }

  /// Sets dates, offer and chain for a new subscription purchase; handles upgrades and downgrades.
  /// Returns the events to announce after the purchase and the transactions changed silently.
  mutating func startSubscription(
    _ transaction: inout PaymentTransaction, product: Product
  ) throws(EngineError) -> (events: [StoreEvent], amended: [PaymentTransaction]) {
    guard let info = product.subscription else { return ([], []) }
    let account = transaction.account
    let plan = subscriptionPlan(for: product, info: info, account: account, offerID: transaction.offerID)
    switch plan.kind {
    case .sameProduct(var active), .upgrade(var active), .change(var active):
      transaction.originalID = active.originalID
      transaction.originalPurchaseDate = transactions[active.originalID]?.originalPurchaseDate ?? transaction.purchaseDate
      transaction.webOrderLineItemID = active.webOrderLineItemID
      transaction.price = plan.price
      var amended: [PaymentTransaction] = []
      switch plan.kind {
      case .sameProduct:
        transaction.expiresDate = active.expiresDate
      case .upgrade:
        // The old period is marked upgraded (refunded pro rata by the store), in the same step.
        if var old = currentTransaction(of: active) {
          old.isUpgraded = true
          old.signedTransaction = nil
          amended.append(try put(old))
        }
        transaction.expiresDate = timeRate.end(of: info.period, from: now)
        active.productID = product.id
        active.expiresDate = transaction.expiresDate ?? now
      default:
        // No entitlement change until the next renewal.
        transaction.expiresDate = nil
      }
      active.renewalProductID = product.id
      active.autoRenew = true
      put(active)
      return ([], amended)
    case .new(let offer):
      transaction.webOrderLineItemID = makeLineItemID()
      var length = timeRate.end(of: info.period, from: now)
      if let offer {
        transaction.offerType = offer.kind
        transaction.offerID = offer.kind == .introductory ? nil : offer.id
        transaction.offerPaymentMode = offer.paymentMode
        transaction.price = plan.price
        length = timeRate.end(of: offer.period, from: now, times: offer.paymentMode == .payUpFront ? 1 : offer.numberOfPeriods)
      }
      transaction.expiresDate = length
      let record = SubscriptionRecord(
        originalID: transaction.originalID, account: account, groupID: info.groupID, productID: product.id,
        renewalProductID: product.id, autoRenew: true, status: .subscribed, expiresDate: length, renewalCount: 0,
        gracePeriodExpiresDate: nil, expirationIntent: nil, priceIncreasePending: false,
        webOrderLineItemID: transaction.webOrderLineItemID ?? 0)
      put(record)
      return ([.subscriptionChanged(record, reason: "purchased")], [])
    }
  }

  /// The chain a transaction belongs to.
  func subscriptionRecord(for id: PaymentTransaction.ID) throws(EngineError) -> SubscriptionRecord {
    guard let transaction = transactions[id] else { throw .unknownTransaction(id.description) }
    guard let record = subscriptionRecords[transaction.originalID] else { throw .notSubscription(id) }
    return record
  }

  /// The chain's current period: its newest purchased transaction with an expiry.
  func currentTransaction(of record: SubscriptionRecord) -> PaymentTransaction? {
    currentPeriod[record.originalID].flatMap { transactions[$0] }
  }

  /// The chain of `group` that is active (not expired or revoked) for `account`.
  func activeSubscription(group: String, account: String) -> SubscriptionRecord? {
    subscriptionRecords.values.filter {
      $0.account == account && $0.groupID == group && $0.status != .expired && $0.status != .revoked
    }.min { $0.originalID < $1.originalID }
  }

  /// Whether `account` may still use an introductory offer in `group` (once per group per account).
  /// Every subscription bought in a group has a record, which lives as long as the history does, so
  /// the records answer this without the transactions of ended subscriptions.
  public func isEligibleForIntroOffer(group: String, account: String) -> Bool {
    !subscriptionRecords.values.contains { $0.account == account && $0.groupID == group }
  }
}
