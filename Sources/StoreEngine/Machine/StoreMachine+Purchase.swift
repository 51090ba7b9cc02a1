import Foundation

extension StoreMachine {
  /// `SKPaymentQueue.add(_:)`: the new transaction is delivered as `purchasing`; then the sign-in
  /// sheet, the purchase sheet, or (with dialogs off) the store's answer follows. Payments the store
  /// refuses outright arrive as `failed` with StoreKit's code (`paymentNotAllowed`, `paymentInvalid`).
  mutating func add(_ payment: Payment) throws(EngineError) -> PaymentTransaction.ID {
    let account = currentAccount ?? ""
    let product = catalog.product(payment.productID)
    var transaction = PaymentTransaction(
      id: try makeTransactionID(), account: account, productID: payment.productID,
      productKind: product?.kind ?? .consumable, quantity: payment.quantity,
      applicationUsername: payment.applicationUsername, purchaseDate: now,
      currency: Self.currency(of: controls.storefront), storefront: controls.storefront)
    transaction.subscriptionGroupID = product?.subscription?.groupID
    transaction.offerID = payment.offerID ?? payment.discount?.identifier
    transaction.ownerSession = environment.session.id
    transaction.appBundleID = environment.bundleID

    let refusal: StoreKitError? =
      if !controls.canMakePayments { .paymentNotAllowed }
      else if product == nil { refusal(forMissingProduct: payment.productID) }
      else if payment.quantity < 1 || payment.quantity > 10 { .paymentInvalid }
      else if payment.quantity != 1 && product?.kind != .consumable { .paymentInvalid }
      else {
        billingPlanRefusal(for: payment, product: product) ?? offerRefusal(for: payment, product: product)
          ?? eligibilityRefusal(for: payment, product: product)
      }
    if refusal == nil, product?.kind == .autoRenewableSubscription {
      transaction.introductoryOfferAllowed = payment.introductoryOfferEligibility?.allowIntroductoryOffer
      // Only the monthly plan is kept: the up-front plan is the default a transaction without one has.
      transaction.billingPlanType = payment.billingPlanType == BillingPlan.monthly ? BillingPlan.monthly : nil
    }
    if let refusal {
      transaction.state = .failed
      transaction.error = refusal
      step.emit(.transactionsUpdated([try put(transaction)]))
      return transaction.id
    }
    noteRedemption(&transaction)
    step.emit(.transactionsUpdated([try put(transaction)]))
    waitingForPrompt.append(transaction.id)
    try presentNextPromptOrComplete()
    return transaction.id
  }

  /// The user tapped Buy on the purchase sheet.
  mutating func confirm() throws(EngineError) {
    guard case .confirm(let id, _, _, _, _, _) = prompt else { throw .noPrompt }
    try ensureStillOwned(id)
    prompt = nil
    step.emit(.promptDismissed)
    try complete(id)
    try presentNextPromptOrComplete()
  }

  /// The user tapped Cancel: the payment fails with `paymentCancelled` (a cancelled restore
  /// sign-in fails the restore).
  mutating func cancel() throws(EngineError) {
    guard let current = prompt else { throw .noPrompt }
    if let id = current.transactionID { try ensureStillOwned(id) }
    prompt = nil
    step.emit(.promptDismissed)
    switch current {
    case .confirm(let id, _, _, _, _, _):
      try fail(id, with: .paymentCancelled)
    case .signIn(.purchase(let id)):
      // B57: cancelling the sign-in prompt reaches the observer as SKErrorDomain 0, not
      // paymentCancelled (openradar 42772397).
      try fail(id, with: .unknown)
    case .signIn(.restore):
      step.emit(.restoreFailed(.paymentCancelled))
    }
    try presentNextPromptOrComplete()
  }

  /// Shows the sheet for the next waiting payment, or completes payments that need no sheet.
  mutating func presentNextPromptOrComplete() throws(EngineError) {
    while prompt == nil, let id = waitingForPrompt.first {
      waitingForPrompt.removeFirst()
      guard let transaction = transactions[id], transaction.state == .purchasing else { continue }
      if currentAccount == nil || transaction.account.isEmpty {
        prompt = .signIn(purpose: .purchase(id))
      } else if let refusal = subscriptionRefusal(for: transaction) {
        // B24, B52: refused before any sheet ("You're currently subscribed to this").
        try refuse(id, with: refusal.error, subscribed: refusal.subscribed)
        continue
      } else if controls.dialogsEnabled {
        let owned = transaction.productKind != .consumable
          && ownership(of: transaction.productID, account: transaction.account) != nil
        prompt = .confirm(
          transaction: id, product: transaction.productID, quantity: transaction.quantity, alreadyOwned: owned,
          price: quote(transaction), terms: subscriptionTerms(transaction))
      } else {
        try complete(id)
        continue
      }
      if let prompt { step.emit(.promptPresented(prompt)) }
    }
  }

  /// The store's answer to a confirmed payment: purchased, deferred (Ask to Buy), or failed.
  mutating func complete(_ id: PaymentTransaction.ID) throws(EngineError) {
    guard var transaction = transactions[id], transaction.state == .purchasing else { return }
    if let failure = controls.failures[.purchase], roll(failure.chance) {
      try fail(id, with: failure.error)
      return
    }
    if let offerID = transaction.offerID, let failure = controls.failures[.offerCodeRedeem],
      catalog.product(transaction.productID)?.subscription?.codeOffers.contains(where: { $0.id == offerID }) == true,
      roll(failure.chance)
    {
      try fail(id, with: failure.error)
      return
    }
    if controls.interruptedPurchases {
      transaction.state = .failed
      transaction.error = .unknown
      transaction.needsResolution = true
      step.emit(.transactionsUpdated([try put(transaction)]))
      return
    }
    if controls.askToBuy {
      try deferForApproval(transaction)
      return
    }
    try deliverPurchase(transaction)
  }

  /// Marks a transaction purchased: charges it (or re-grants it for free), sets subscription dates.
  mutating func deliverPurchase(_ purchasing: PaymentTransaction) throws(EngineError) {
    var transaction = purchasing
    guard let product = catalog.product(transaction.productID) else {
      try fail(transaction.id, with: .storeProductNotAvailable)
      return
    }
    transaction.state = .purchased
    transaction.purchaseDate = now
    transaction.error = nil
    transaction.account = transaction.account.isEmpty ? (currentAccount ?? "") : transaction.account
    transaction.currency = Self.currency(of: transaction.storefront)
    transaction.price = listPrice(of: product, quantity: transaction.quantity, currency: transaction.currency)
    // B88: the offer code this purchase redeems is counted now, or refused (used up meanwhile, or
    // this customer's second of the offer): nothing is charged.
    if let refusal = consumeCode(of: &transaction) {
      try fail(transaction.id, with: refusal.storeKitError)
      return
    }
    var after: [StoreEvent] = []
    var amended: [PaymentTransaction] = []
    switch product.kind {
    case .consumable, .nonRenewingSubscription:
      // B66: a non-renewing subscription has no term of ours; the app decides how long it lasts.
      notify(.oneTimeCharge, about: transaction.id)
    case .nonConsumable:
      if let original = ownership(of: product.id, account: transaction.account) {
        // The sandbox's "already purchased": re-downloaded for free, linked to the first purchase.
        transaction.originalID = original.originalID
        transaction.originalPurchaseDate = original.originalPurchaseDate
        transaction.price = 0
        // B23: the App Store makes no new transaction; the signed data is the existing one's
        // (what StoreKit 2's purchase() returns).
        transaction.signedTransaction = original.signedTransaction
        if let failure = controls.failures[.verification], roll(failure.chance) {
          transaction.signedTransaction = transaction.signedTransaction.map(Self.breakingSignature)
        }
      } else {
        notify(.oneTimeCharge, about: transaction.id)
      }
    case .autoRenewableSubscription:
      transaction.subscriptionGroupID = product.subscription?.groupID
      let outcome = try startSubscription(&transaction, product: product)
      after = outcome.events
      amended = outcome.amended
    }
    // B61: whatever priced it (list price, offer, upgrade), the charge is in the currency's units.
    transaction.price = Money.rounded(transaction.price, currencyCode: transaction.currency)
    // §47: a switch between a standalone subscription and a bundle, and a bundle's components.
    let switched = try switchForBundles(&transaction, product: product)
    let stored = try put(transaction)
    step.emit(.transactionsUpdated([stored] + (try deliverComponents(of: stored, product: product, replaced: switched.replaced))))
    if !amended.isEmpty { step.emit(.transactionsAmended(amended)) }
    step.events += switched.events + after
    try shareWithFamily(transaction, product: product)
  }

  mutating func fail(_ id: PaymentTransaction.ID, with error: StoreKitError) throws(EngineError) {
    guard var transaction = transactions[id] else { return }
    dropPendingCode(of: id)
    transaction.state = .failed
    transaction.error = error
    step.emit(.transactionsUpdated([try put(transaction)]))
  }

  /// `finishTransaction(_:)`. Finishing twice or finishing a `purchasing` transaction is misuse
  /// and changes nothing.
  mutating func finish(_ id: PaymentTransaction.ID) throws(EngineError) {
    guard var transaction = transactions[id] else { throw .unknownTransaction(id.description) }
    if transaction.isFinished { throw .alreadyFinished(id) }
    if transaction.state == .purchasing { throw .cannotFinishPurchasing(id) }
    transaction.isFinished = true
    let needsSigning = transaction.signedTransaction == nil && (transaction.state == .purchased || transaction.state == .restored)
    if needsSigning || transaction.ownerSession != nil {
      transaction = try put(transaction)
    } else {
      // Only the flag changes, so the ledger may write the flag alone.
      step.changes.append(.finishTransaction(transaction))
      remember(transaction)
      lastTransactionID = transaction.id
    }
    step.emit(.transactionsRemoved([transaction]))
    // A finished consumable leaves the working set, as it is left out at launch: nothing the store
    // decides depends on it, and a small working set keeps every step's copy of the machine cheap.
    if transaction.productKind == .consumable { forget(id) }
  }

  /// Resolves an interrupted purchase: a new, successful transaction for the same product arrives.
  mutating func resolve(_ id: PaymentTransaction.ID) throws(EngineError) -> PaymentTransaction.ID {
    guard var original = transactions[id] else { throw .unknownTransaction(id.description) }
    guard original.needsResolution else { throw .notInterrupted(id) }
    original.needsResolution = false
    try put(original)
    var resolved = original
    resolved.id = try makeTransactionID()
    resolved.originalID = resolved.id
    resolved.isFinished = false
    resolved.signedTransaction = nil
    resolved.signedRenewalInfo = nil
    resolved.state = .purchasing
    // A first purchase: its original purchase date is its own, not the failed attempt's.
    resolved.originalPurchaseDate = now
    try deliverPurchase(resolved)
    return resolved.id
  }

  /// Refunds a transaction: entitlement removed, `revocationDate` and reason recorded, re-signed.
  /// This is the tester's refund (Xcode's Transaction Manager), which is always granted: the
  /// simulated "Refund Request Sheet" error belongs to the app's sheet (``requestRefund(_:answer:reason:)``). (B10)
  mutating func refund(_ id: PaymentTransaction.ID, reason: Int) throws(EngineError) {
    guard var transaction = transactions[id] else { throw .unknownTransaction(id.description) }
    // A non-consumable's re-download or restore is no purchase of its own: the App Store refunds the
    // purchase it stands for (B23).
    if transaction.productKind == .nonConsumable, transaction.originalID != transaction.id,
      let original = transactions[transaction.originalID], original.state == .purchased
    {
      transaction = original
    }
    guard transaction.state == .purchased || transaction.state == .restored else {
      throw .cannotRefund(id, because: .notPurchased(transaction.state))
    }
    guard transaction.revocationDate == nil else { throw .cannotRefund(id, because: .alreadyRefunded) }
    transaction.revocationDate = now
    transaction.revocationReason = reason
    transaction.signedTransaction = nil
    var events: [StoreEvent] = []
    if var record = subscriptionRecords[transaction.originalID],
      currentTransaction(of: record)?.id == transaction.id || record.productID == transaction.productID
    {
      // Refunding the current period revokes the subscription; it will not renew.
      record.status = .revoked
      record.autoRenew = false
      events.append(.subscriptionChanged(try put(record), reason: "refunded"))
    }
    step.emit(.transactionRevoked(try put(transaction)))
    // §47: a bundle's refunded period takes its components' with it.
    step.events += try revokeComponents(of: transaction)
    step.events += events
    notify(.refund, about: transaction.id)
    try revokeFamilyCopies(of: transaction)
  }

  /// What the purchase sheet for `transaction` will charge: the same rules ``deliverPurchase(_:)``
  /// applies, so the sheet never shows a price the store does not charge.
  func quote(_ transaction: PaymentTransaction) -> Money {
    let currency = Self.currency(of: transaction.storefront)
    guard let product = catalog.product(transaction.productID) else { return Money(0, currencyCode: currency) }
    let account = transaction.account.isEmpty ? (currentAccount ?? "") : transaction.account
    var price = listPrice(of: product, quantity: transaction.quantity, currency: currency)
    switch product.kind {
    case .consumable, .nonRenewingSubscription: if let code = codePrice(of: transaction) { price = code }
    case .nonConsumable:
      if ownership(of: product.id, account: account) != nil { price = 0 } else if let code = codePrice(of: transaction) { price = code }
    case .autoRenewableSubscription:
      if let info = product.subscription {
        price = subscriptionPlan(for: product, info: info, account: account, transaction: transaction).price
      }
    }
    return Money(Money.rounded(price, currencyCode: currency), currencyCode: currency)
  }

  /// The catalog price in `currency`'s units (₩1 for `0.99`; B61), times the quantity.
  func listPrice(of product: Product, quantity: Int, currency: String) -> Decimal {
    let unit = Money.rounded(product.price, currencyCode: currency)
    return quantity == 1 ? unit : unit * Decimal(quantity)
  }

  /// The currency of a storefront code (USD when the code is unknown).
  static func currency(of storefront: String) -> String {
    Storefront.lookup(storefront)?.currencyCode ?? "USD"
  }
}

extension StoreMachine {
  /// The transaction manager's purchase at a past moment: the payment is made with the clock at
  /// `date` (no later than now), then everything due since happens in order up to now — renewals, or,
  /// when `cancelImmediately`, the expiry of a subscription whose auto-renew was turned off at once.
  mutating func buy(_ payment: Payment, at date: Date, cancelImmediately: Bool) throws(EngineError) -> PaymentTransaction.ID {
    let present = now
    now = min(date, present)
    let id: PaymentTransaction.ID
    do {
      id = try add(payment)
    } catch {
      now = present
      throw error
    }
    now = present
    if cancelImmediately, let transaction = transactions[id], transaction.productKind == .autoRenewableSubscription,
      transaction.state == .purchased
    {
      try setAutoRenew(false, for: transaction.id)
    }
    try advance(to: present)
    return id
  }
}
