import Foundation

extension StoreMachine {
  /// How buying an auto-renewable product plays out for an account, decided in one place so that
  /// the sheet's price, the refusal before the sheet and the charge agree.
  struct SubscriptionPlan {
    enum Kind {
      /// No active chain in the group: a new subscription, with `offer` if one applies; `lapsed` is
      /// the group's expired chain it continues (B37), if any.
      case new(offer: SubscriptionOffer?, lapsed: SubscriptionRecord?)
      /// Already subscribed to this product: the payment fails (B24), nothing is charged.
      case alreadySubscribed(SubscriptionRecord)
      /// A higher level, or a crossgrade of the same level and duration: takes effect now, billed in
      /// full (or at `offer`'s terms, N2), the old period marked upgraded (B44, B46).
      case upgrade(SubscriptionRecord, offer: SubscriptionOffer?)
      /// A downgrade or a crossgrade of another duration: only the renewal product changes; billed
      /// at the next renewal (B45, B46), with `offer` from then on if one was redeemed (N2).
      case change(SubscriptionRecord, offer: SubscriptionOffer?)
      /// An offer bought by a subscriber of the same product: it applies from the next renewal.
      case offerAtRenewal(SubscriptionRecord, SubscriptionOffer)
      /// The store refuses the offer (`ineligibleForOffer`, `invalidOfferIdentifier`).
      case refused(StoreKitError)
    }
    var kind: Kind
    var price: Decimal
  }

  func subscriptionPlan(for product: Product, info: SubscriptionInfo, account: String, transaction: PaymentTransaction) -> SubscriptionPlan {
    let offerID = transaction.offerID
    let allOffers = info.promotionalOffers + info.codeOffers + info.winBackOffers
    // A monthly-commitment purchase is billed the plan's monthly price (DECISIONS §43).
    let regular = regularPrice(of: product, plan: transaction.billingPlanType)
    if let active = activeSubscription(group: info.groupID, account: account) {
      let current = catalog.product(active.productID)?.subscription
      if let offerID, info.winBackOffers.contains(where: { $0.id == offerID }) {
        // B53: win-back offers are for lapsed subscribers only.
        return SubscriptionPlan(kind: .refused(.ineligibleForOffer), price: 0)
      }
      // An existing subscriber's offer: on the same product from the next renewal, on another
      // product with the plan change (N2: Apple's OFFER_REDEEMED UPGRADE / DOWNGRADE), never dropped.
      var offer: SubscriptionOffer?
      if let offerID {
        guard let chosen = allOffers.first(where: { $0.id == offerID }) else {
          return SubscriptionPlan(kind: .refused(.invalidOfferIdentifier), price: 0)
        }
        guard chosen.kind != .code || chosen.eligibility.isEmpty || chosen.eligibility.contains("existing") else {
          return SubscriptionPlan(kind: .refused(.ineligibleForOffer), price: 0)
        }
        offer = chosen
      }
      let offerPrice = offer.map { $0.paymentMode == .freeTrial ? 0 : $0.price }
      if let offer, active.productID == product.id {
        return SubscriptionPlan(kind: .offerAtRenewal(active, offer), price: offerPrice ?? regular)
      }
      if active.productID == product.id, active.renewalProductID == product.id {
        return SubscriptionPlan(kind: .alreadySubscribed(active), price: 0)
      }
      if active.productID == product.id {
        // Choosing the current plan again undoes a pending downgrade.
        return SubscriptionPlan(kind: .change(active, offer: nil), price: regular)
      }
      let level = current?.level ?? info.level
      if info.level < level || (info.level == level && info.period == current?.period) {
        return SubscriptionPlan(kind: .upgrade(active, offer: offer), price: offerPrice ?? regular)
      }
      return SubscriptionPlan(kind: .change(active, offer: offer), price: offerPrice ?? regular)
    }
    let history = subscriptionRecords.values.filter { $0.account == account && $0.groupID == info.groupID }
    let lapsed = history.filter { $0.status == .expired }.max { $0.expiresDate < $1.expiresDate }
    // N3: a chain that ended by a refund is subscribed again as well (RESUBSCRIBE), not started anew.
    let ended = lapsed ?? history.filter { $0.status == .revoked }.max { $0.expiresDate < $1.expiresDate }
    var offer: SubscriptionOffer?
    if let offerID {
      guard let chosen = allOffers.first(where: { $0.id == offerID })
      else { return SubscriptionPlan(kind: .refused(.invalidOfferIdentifier), price: 0) }
      let subscribedInApp = !history.isEmpty || subscriptionRecords.values.contains { $0.account == account }
      guard isEligible(for: chosen, subscribedInGroup: !history.isEmpty, subscribedInApp: subscribedInApp, lapsed: lapsed != nil)
      else { return SubscriptionPlan(kind: .refused(.ineligibleForOffer), price: 0) }
      offer = chosen
    } else if let intro = introductoryOffer(of: info, plan: transaction.billingPlanType),
      transaction.introductoryOfferAllowed ?? history.isEmpty
    {
      // The developer's server may grant or withhold it (a signed eligibility request); else the history decides.
      offer = intro
    }
    let price = offer.map { $0.paymentMode == .freeTrial ? 0 : $0.price } ?? regular
    return SubscriptionPlan(kind: .new(offer: offer, lapsed: ended), price: price)
  }

  /// Whether an account with no active subscription in the group may use `offer`. B50: offer codes
  /// name who may redeem them (`new`, `existing`, `expired`); B53: win-back offers are for lapsed
  /// subscribers; promotional offers are for "existing or former subscribers" (App Store Connect API,
  /// `SubscriptionPromotionalOffer`) of the app. N1: a code's "new" means never subscribed in the
  /// code's group (App Store Connect Help, "Set up offer codes").
  private func isEligible(for offer: SubscriptionOffer, subscribedInGroup: Bool, subscribedInApp: Bool, lapsed: Bool) -> Bool {
    switch offer.kind {
    case .winBack: return lapsed
    case .promotional: return subscribedInApp
    case .code:
      guard !offer.eligibility.isEmpty else { return true }
      return (offer.eligibility.contains("new") && !subscribedInGroup) || (offer.eligibility.contains("expired") && lapsed)
    case .introductory: return true
    }
  }

  /// Why the store refuses `transaction` before any sheet, if it does: already subscribed (B24) or
  /// an offer the account may not use (B52, B53). Nothing is charged.
  func subscriptionRefusal(for transaction: PaymentTransaction) -> (error: StoreKitError, subscribed: PaymentTransaction.ID?)? {
    guard transaction.productKind == .autoRenewableSubscription, let product = catalog.product(transaction.productID),
      let info = product.subscription
    else { return nil }
    switch subscriptionPlan(for: product, info: info, account: transaction.account, transaction: transaction).kind {
    case .alreadySubscribed(let active): return (.unknown, currentTransaction(of: active)?.id)
    case .refused(let error): return (error, nil)
    case .new, .upgrade, .change, .offerAtRenewal: return nil
    }
  }

  /// Fails a payment the store refuses, recording the subscription's current transaction for the
  /// StoreKit 2 view (whose `purchase()` returns it as `.success`).
  mutating func refuse(_ id: PaymentTransaction.ID, with error: StoreKitError, subscribed: PaymentTransaction.ID?) throws(EngineError) {
    guard var transaction = transactions[id] else { return }
    transaction.state = .failed
    transaction.error = error
    transaction.subscribedTransactionID = subscribed
    step.emit(.transactionsUpdated([try put(transaction)]))
  }

  /// Sets dates, offer and chain for a subscription purchase; handles upgrades, plan changes and
  /// refusals (the transaction then fails). Returns the events to announce after the purchase and
  /// the transactions changed silently.
  mutating func startSubscription(
    _ transaction: inout PaymentTransaction, product: Product
  ) throws(EngineError) -> (events: [StoreEvent], amended: [PaymentTransaction]) {
    guard let info = product.subscription else { return ([], []) }
    let plan = subscriptionPlan(for: product, info: info, account: transaction.account, transaction: transaction)
    switch plan.kind {
    case .alreadySubscribed(let active):
      markRefused(&transaction, .unknown, subscribed: currentTransaction(of: active)?.id)
      return ([], [])
    case .refused(let error):
      markRefused(&transaction, error, subscribed: nil)
      return ([], [])
    case .change(var active, let offer):
      // B45: no transaction until the next renewal; only the renewal info changes now. StoreKit 1
      // reports the payment as failed with `unknown` (forums/thread/112663).
      active.renewalProductID = product.id
      active.billingPlanType = transaction.billingPlanType
      active.autoRenew = true
      active.expirationIntent = nil
      active.increasedPrice = nil
      active.priceIncreaseStatus = nil
      active.priceIncreasePending = false
      active.renewalOffer = offer.map {
        RenewalOffer(kind: $0.kind, offerID: $0.id, remainingPeriods: $0.paymentMode == .payAsYouGo ? $0.numberOfPeriods : 1)
      }
      markRefused(&transaction, .unknown, subscribed: currentTransaction(of: active)?.id)
      active = try put(active)
      if offer != nil {
        // N2: the offer comes with the downgrade, from the next renewal (OFFER_REDEEMED DOWNGRADE).
        notify(.offerRedeemed, .downgrade, about: currentTransaction(of: active)?.id)
        return ([.subscriptionChanged(active, reason: "renewal product changed with offer")], [])
      }
      // A downgrade, or (the current plan chosen again) its cancellation, which has no subtype.
      notify(.didChangeRenewalPref, active.productID == product.id ? nil : .downgrade, about: currentTransaction(of: active)?.id)
      return ([.subscriptionChanged(active, reason: active.productID == product.id ? "plan change cancelled" : "renewal product changed")], [])
    case .offerAtRenewal(var active, let offer):
      // A subscriber's offer starts with the next period ("at the next renewal period", forums/thread/692798);
      // like a plan change, nothing is charged now.
      active.renewalOffer = RenewalOffer(
        kind: offer.kind, offerID: offer.id, remainingPeriods: offer.paymentMode == .payAsYouGo ? offer.numberOfPeriods : 1)
      markRefused(&transaction, .unknown, subscribed: currentTransaction(of: active)?.id)
      active = try put(active)
      notify(.offerRedeemed, about: currentTransaction(of: active)?.id)
      return ([.subscriptionChanged(active, reason: "offer at next renewal")], [])
    case .upgrade(var active, let offer):
      var amended: [PaymentTransaction] = []
      if var old = currentTransaction(of: active) {
        // The old period is marked upgraded (refunded pro rata by the store), in the same step.
        old.isUpgraded = true
        old.signedTransaction = nil
        amended.append(try put(old))
        // §47: a change between two bundles (or suites) of one group: the old period's component
        // transactions end with it, upgraded too; the new bundle's come with the new period.
        let components = transactions.values.filter { $0.bundle?.transactionID == old.id && !$0.isUpgraded }
        for var component in components.sorted(by: { $0.id < $1.id }) {
          component.isUpgraded = true
          component.signedTransaction = nil
          amended.append(try put(component))
        }
      }
      transaction.originalID = active.originalID
      transaction.originalPurchaseDate = firstPurchaseDate(of: active) ?? transaction.purchaseDate
      transaction.webOrderLineItemID = makeLineItemID()
      transaction.price = plan.price
      transaction.expiresDate = timeRate.end(of: info.period, from: now)
      var renewalOffer: RenewalOffer?
      // An upgrade on the monthly plan starts a commitment to the new product from now; one up front ends it (§43).
      var commitment: Commitment?
      if let offer {
        apply(offer, to: &transaction)
        transaction.expiresDate = offerEnd(offer)
        if offer.paymentMode == .payAsYouGo, offer.numberOfPeriods > 1 {
          renewalOffer = RenewalOffer(kind: offer.kind, offerID: offer.id, remainingPeriods: offer.numberOfPeriods - 1)
        }
      } else if transaction.billingPlanType == BillingPlan.monthly {
        commitment = billMonthly(&transaction, product: product, from: now, continuing: nil)
      }
      active.billingPlanType = transaction.billingPlanType
      active.commitment = commitment
      active.productID = product.id
      active.renewalProductID = product.id
      active.expiresDate = transaction.expiresDate ?? now
      active.webOrderLineItemID = transaction.webOrderLineItemID ?? 0
      active.currentTransactionID = transaction.id
      active.autoRenew = true
      active.expirationIntent = nil
      active.renewalOffer = renewalOffer
      active.increasedPrice = nil
      active.priceIncreaseStatus = nil
      active.priceIncreasePending = false
      active = try put(active, current: transaction)
      notify(offer == nil ? .didChangeRenewalPref : .offerRedeemed, .upgrade, about: transaction.id)
      return ([.subscriptionChanged(active, reason: "upgraded")], amended)
    case .new(let offer, let lapsed):
      notify(.subscribed, lapsed == nil ? .initialBuy : .resubscribe, about: transaction.id)
      return ([try subscribe(&transaction, info: info, offer: offer, lapsed: lapsed, price: plan.price)], [])
    }
  }

  private func markRefused(_ transaction: inout PaymentTransaction, _ error: StoreKitError, subscribed: PaymentTransaction.ID?) {
    transaction.state = .failed
    transaction.error = error
    transaction.price = 0
    transaction.subscribedTransactionID = subscribed
  }

  /// A new subscription, or (B37) the lapsed chain of the group subscribed again: same original
  /// transaction and date, a new run from now.
  private mutating func subscribe(
    _ transaction: inout PaymentTransaction, info: SubscriptionInfo, offer: SubscriptionOffer?,
    lapsed: SubscriptionRecord?, price: Decimal
  ) throws(EngineError) -> StoreEvent {
    if let lapsed {
      transaction.originalID = lapsed.originalID
      transaction.originalPurchaseDate = firstPurchaseDate(of: lapsed) ?? transaction.purchaseDate
    }
    transaction.webOrderLineItemID = makeLineItemID()
    var end = timeRate.end(of: info.period, from: now)
    var renewalOffer: RenewalOffer?
    if let offer {
      apply(offer, to: &transaction)
      transaction.price = price
      end = offerEnd(offer)
      if offer.paymentMode == .payAsYouGo {
        // B33: one transaction per billed period; the renewals bill the rest at the offer price.
        if offer.numberOfPeriods > 1 {
          renewalOffer = RenewalOffer(kind: offer.kind, offerID: offer.id, remainingPeriods: offer.numberOfPeriods - 1)
        }
      }
    }
    transaction.expiresDate = end
    // The monthly plan's first payment begins a commitment; after an offer, its first renewal does (§43).
    let commitment =
      transaction.billingPlanType == BillingPlan.monthly && offer == nil
      ? catalog.product(transaction.productID).flatMap { billMonthly(&transaction, product: $0, from: now, continuing: nil) } : nil
    end = transaction.expiresDate ?? end
    var record = lapsed ?? SubscriptionRecord(
      originalID: transaction.originalID, account: transaction.account, groupID: info.groupID,
      productID: transaction.productID, renewalProductID: transaction.productID, autoRenew: true, status: .subscribed,
      expiresDate: end, renewalCount: 0, gracePeriodExpiresDate: nil, expirationIntent: nil,
      priceIncreasePending: false, webOrderLineItemID: 0)
    record.productID = transaction.productID
    record.renewalProductID = transaction.productID
    record.autoRenew = true
    record.status = .subscribed
    record.expiresDate = end
    record.renewalCount = 0
    record.gracePeriodExpiresDate = nil
    record.expirationIntent = nil
    record.priceIncreasePending = false
    record.priceIncreaseStatus = nil
    record.increasedPrice = nil
    record.webOrderLineItemID = transaction.webOrderLineItemID ?? 0
    record.currentTransactionID = transaction.id
    record.renewalOffer = renewalOffer
    record.billingPlanType = transaction.billingPlanType
    record.commitment = commitment
    record.originalPurchaseDate = transaction.originalPurchaseDate
    record.recentStartDate = lapsed.map { recentStart(of: $0, resumingAt: now) } ?? now
    record = try put(record, current: transaction)
    return .subscriptionChanged(record, reason: lapsed == nil ? "purchased" : "resubscribed")
  }

  /// When the first transaction of `offer` bought now expires: a free trial's whole length, one
  /// pay-up-front period, or the first pay-as-you-go period.
  private func offerEnd(_ offer: SubscriptionOffer) -> Date {
    offer.paymentMode == .freeTrial
      ? timeRate.end(of: offer.period, from: now, times: offer.numberOfPeriods) : timeRate.end(of: offer.period, from: now)
  }

  /// How long a lapse may last without restarting `recentSubscriptionStartDate`: "a gap in paid
  /// service of more than 60 days in the production environment, or 10 minutes in the sandbox".
  static let sandboxLapseLimit: TimeInterval = 600

  /// The `recentSubscriptionStartDate` of a lapsed chain that resumes at `date`.
  func recentStart(of lapsed: SubscriptionRecord, resumingAt date: Date) -> Date {
    guard date.timeIntervalSince(lapsed.expiresDate) <= Self.sandboxLapseLimit else { return date }
    return lapsed.recentStartDate ?? firstPurchaseDate(of: lapsed) ?? date
  }

  /// Puts `offer` on `transaction` as Apple's payload shows it: offer codes by their reference name
  /// (B50), introductory offers without an identifier, the whole offer's duration as `offerPeriod`.
  func apply(_ offer: SubscriptionOffer, to transaction: inout PaymentTransaction) {
    transaction.offerType = offer.kind
    transaction.offerID = Self.signedIdentifier(of: offer)
    transaction.offerPaymentMode = offer.paymentMode
    transaction.offerPeriod = Self.wholePeriod(of: offer).iso8601
  }

  /// The `offerIdentifier` Apple signs: the reference name of an offer code, the id otherwise.
  static func signedIdentifier(of offer: SubscriptionOffer) -> String? {
    switch offer.kind {
    case .introductory: nil
    case .code: offer.referenceName.isEmpty ? offer.id : offer.referenceName
    case .promotional, .winBack: offer.id
    }
  }

  /// The offer's whole duration (`P2M` for two monthly periods, Apple's `offerPeriod` table).
  static func wholePeriod(of offer: SubscriptionOffer) -> SubscriptionPeriod {
    offer.paymentMode == .payUpFront
      ? offer.period : SubscriptionPeriod(value: offer.period.value * max(1, offer.numberOfPeriods), unit: offer.period.unit)
  }

  /// The catalog offer a pending ``RenewalOffer`` names.
  func catalogOffer(_ pending: RenewalOffer, of product: Product.ID) -> SubscriptionOffer? {
    guard let info = catalog.product(product)?.subscription else { return nil }
    return (info.introductoryOffers + info.promotionalOffers + info.codeOffers + info.winBackOffers)
      .first { $0.kind == pending.kind && $0.id == pending.offerID }
  }

  /// The chain's first purchase date, kept on the record so that a lapsed chain needs no old rows.
  func firstPurchaseDate(of record: SubscriptionRecord) -> Date? {
    record.originalPurchaseDate ?? transactions[record.originalID]?.originalPurchaseDate
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

  /// B39: the current periods of `account`'s subscriptions in their billing grace period, which
  /// keep full access although the period's `expiresDate` has passed.
  public func gracePeriodTransactions(account: String) -> [PaymentTransaction] {
    subscriptionRecords.values.filter {
      $0.account == account && $0.status == .inGracePeriod && ($0.gracePeriodExpiresDate ?? .distantPast) > now
    }.sorted { $0.originalID < $1.originalID }.flatMap { record in
      // §47: a bundle in grace keeps its included subscriptions too.
      // A component of an earlier period (a product the bundle before a plan change included) is not.
      let current = currentTransaction(of: record)
      return (current.map { [$0] } ?? []) + currentComponents(of: record.originalID).filter { $0.bundle?.transactionID == current?.id }
    }
  }

  /// Whether `account` may still use an introductory offer in `group` (once per group per account).
  /// Every subscription bought in a group has a record, which lives as long as the history does, so
  /// the records answer this without the transactions of ended subscriptions.
  public func isEligibleForIntroOffer(group: String, account: String) -> Bool {
    !subscriptionRecords.values.contains { $0.account == account && $0.groupID == group }
  }
}
