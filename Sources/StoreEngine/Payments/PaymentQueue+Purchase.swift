import Foundation

extension PaymentQueue {
  /// Adds a payment to the queue (`SKPaymentQueue.add(_:)`).
  ///
  /// The new transaction is delivered as `purchasing`; then the sign-in sheet, the purchase sheet, or
  /// (with dialogs off) the store's answer follows. Payments the store refuses outright arrive as
  /// `failed` with StoreKit's code (`paymentNotAllowed`, `paymentInvalid`).
  ///
  /// - Returns: the new transaction's id.
  @discardableResult
  public func add(_ payment: Payment) throws(EngineError) -> PaymentTransaction.ID {
    let account = currentAccount ?? ""
    let product = catalog.product(payment.productID)
    var transaction = PaymentTransaction(
      id: try makeTransactionID(), account: account, productID: payment.productID,
      productKind: product?.kind ?? .consumable, quantity: payment.quantity,
      applicationUsername: payment.applicationUsername, purchaseDate: now,
      currency: (Storefront.lookup(controls.storefront)?.currencyCode ?? "USD"), storefront: controls.storefront)
    transaction.subscriptionGroupID = product?.subscription?.groupID
    transaction.offerID = payment.offerID
    transaction.ownerSession = environment.session.id

    let refusal: StoreKitError? =
      if !controls.canMakePayments { .paymentNotAllowed }
      else if product == nil { .paymentInvalid }
      else if payment.quantity < 1 || payment.quantity > 10 { .paymentInvalid }
      else if payment.quantity != 1 && product?.kind != .consumable { .paymentInvalid }
      else { nil }
    if let refusal {
      transaction.state = .failed
      transaction.error = refusal
      let saved = try commit([transaction])
      emit([.transactionsUpdated(saved)])
      return transaction.id
    }

    let saved = try commit([transaction])
    emit([.transactionsUpdated(saved)])
    waitingForPrompt.append(transaction.id)
    try presentNextPromptOrComplete()
    return transaction.id
  }

  /// The user tapped Buy on the purchase sheet.
  public func confirm() throws(EngineError) {
    guard case .confirm(let id, _, _, _) = prompt else { throw misuse(.noPrompt) }
    prompt = nil
    emit([.promptDismissed])
    try complete(id)
    try presentNextPromptOrComplete()
  }

  /// The user tapped Cancel on the sheet: the payment fails with `paymentCancelled`
  /// (a cancelled restore sign-in fails the restore).
  public func cancel() throws(EngineError) {
    guard let current = prompt else { throw misuse(.noPrompt) }
    prompt = nil
    emit([.promptDismissed])
    switch current {
    case .confirm(let id, _, _, _), .signIn(.purchase(let id)):
      try fail(id, with: .paymentCancelled)
    case .signIn(.restore):
      emit([.restoreFailed(.paymentCancelled)])
    }
    try presentNextPromptOrComplete()
  }

  /// Shows the sheet for the next waiting payment, or completes payments that need no sheet.
  func presentNextPromptOrComplete() throws(EngineError) {
    while prompt == nil, let id = waitingForPrompt.first {
      guard let transaction = transactions[id], transaction.state == .purchasing else {
        waitingForPrompt.removeFirst()
        continue
      }
      if currentAccount == nil || transaction.account.isEmpty {
        prompt = .signIn(purpose: .purchase(id))
      } else if controls.dialogsEnabled {
        let owned = transaction.productKind != .consumable
          && ownership(of: transaction.productID, account: transaction.account) != nil
        prompt = .confirm(transaction: id, product: transaction.productID, quantity: transaction.quantity, alreadyOwned: owned)
      } else {
        waitingForPrompt.removeFirst()
        try complete(id)
        continue
      }
      waitingForPrompt.removeFirst()
      if let prompt { emit([.promptPresented(prompt)]) }
    }
  }

  /// Re-presents sheets after a relaunch, ignoring errors that only misuse could cause.
  func presentNextPrompt() {
    do { try presentNextPromptOrComplete() } catch { emit([.misuse(error)]) }
  }

  /// The store's answer to a confirmed payment: purchased, deferred (Ask to Buy), or failed.
  func complete(_ id: PaymentTransaction.ID) throws(EngineError) {
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
      let saved = try commit([transaction])
      emit([.transactionsUpdated(saved)])
      return
    }
    if controls.askToBuy {
      transaction.state = .deferred
      let saved = try commit([transaction])
      emit([.transactionsUpdated(saved)])
      return
    }
    try deliverPurchase(&transaction)
  }

  /// Marks a transaction purchased: charges it (or re-grants it for free), sets subscription dates.
  func deliverPurchase(_ transaction: inout PaymentTransaction) throws(EngineError) {
    guard let product = catalog.product(transaction.productID) else {
      try fail(transaction.id, with: .storeProductNotAvailable)
      return
    }
    transaction.state = .purchased
    transaction.purchaseDate = now
    transaction.error = nil
    transaction.account = transaction.account.isEmpty ? (currentAccount ?? "") : transaction.account
    transaction.price = transaction.quantity == 1 ? product.price : product.price * Decimal(transaction.quantity)
    transaction.currency = (Storefront.lookup(transaction.storefront)?.currencyCode ?? "USD")
    var extra: [LedgerChange] = []
    switch product.kind {
    case .consumable:
      break
    case .nonConsumable:
      if let original = ownership(of: product.id, account: transaction.account) {
        // The sandbox's "already purchased": re-downloaded for free, linked to the first purchase.
        transaction.originalID = original.originalID
        transaction.originalPurchaseDate = original.originalPurchaseDate
        transaction.price = 0
      }
    case .nonRenewingSubscription:
      // Buying again extends from the current expiry; the catalog gives no duration, so a year is assumed.
      let current = ownership(of: product.id, account: transaction.account)?.expiresDate
      let base = max(current ?? now, now)
      transaction.expiresDate = SubscriptionPeriod(value: 1, unit: .year).advance(base)
    case .autoRenewableSubscription:
      transaction.subscriptionGroupID = product.subscription?.groupID
      try startSubscription(&transaction, product: product, extra: &extra)
    }
    let saved = try commit([transaction], extra: extra)
    let statusEvents = pendingStatusEvents
    pendingStatusEvents = []
    emit([.transactionsUpdated(saved)] + statusEvents)
  }

  func fail(_ id: PaymentTransaction.ID, with error: StoreKitError) throws(EngineError) {
    guard var transaction = transactions[id] else { return }
    transaction.state = .failed
    transaction.error = error
    let saved = try commit([transaction])
    emit([.transactionsUpdated(saved)])
  }

  /// `finishTransaction(_:)`: removes a transaction from the queue. Finishing twice or finishing a
  /// `purchasing` transaction is reported as misuse and changes nothing.
  public func finish(_ id: PaymentTransaction.ID) throws(EngineError) {
    guard var transaction = transactions[id] else { throw misuse(.unknownTransaction(id.description)) }
    if transaction.isFinished { throw misuse(.alreadyFinished(id)) }
    if transaction.state == .purchasing { throw misuse(.cannotFinishPurchasing(id)) }
    transaction.isFinished = true
    let saved = try commit([transaction])
    emit([.transactionsRemoved(saved)])
  }

  /// Ask to Buy: the parent approves; the deferred transaction becomes purchased.
  public func approve(_ id: PaymentTransaction.ID) throws(EngineError) {
    guard var transaction = transactions[id] else { throw misuse(.unknownTransaction(id.description)) }
    guard transaction.state == .deferred else { throw misuse(.notDeferred(id)) }
    try deliverPurchase(&transaction)
  }

  /// Ask to Buy: the parent declines; the deferred transaction fails with `paymentCancelled`.
  public func decline(_ id: PaymentTransaction.ID) throws(EngineError) {
    guard let transaction = transactions[id] else { throw misuse(.unknownTransaction(id.description)) }
    guard transaction.state == .deferred else { throw misuse(.notDeferred(id)) }
    try fail(id, with: .paymentCancelled)
  }

  /// Resolves an interrupted purchase: a new, successful transaction for the same product arrives.
  @discardableResult
  public func resolve(_ id: PaymentTransaction.ID) throws(EngineError) -> PaymentTransaction.ID {
    guard var original = transactions[id] else { throw misuse(.unknownTransaction(id.description)) }
    guard original.needsResolution else { throw misuse(.notInterrupted(id)) }
    original.needsResolution = false
    try commit([original])
    var resolved = original
    resolved.id = try makeTransactionID()
    resolved.originalID = resolved.id
    resolved.isFinished = false
    resolved.signedTransaction = nil
    resolved.state = .purchasing
    try deliverPurchase(&resolved)
    return resolved.id
  }

  /// Schedules an Ask to Buy answer after a delay of virtual time (like Google's slow test cards).
  public func schedule(approve: Bool, _ id: PaymentTransaction.ID, after delay: TimeInterval) throws(EngineError) {
    guard let transaction = transactions[id] else { throw misuse(.unknownTransaction(id.description)) }
    guard transaction.state == .deferred else { throw misuse(.notDeferred(id)) }
    schedule(approve ? .approve(id) : .decline(id), at: now.addingTimeInterval(delay))
  }

  /// Refunds a transaction: entitlement removed, `revocationDate` and reason recorded, re-signed.
  public func refund(_ id: PaymentTransaction.ID, reason: Int = 0) throws(EngineError) {
    guard var transaction = transactions[id] else { throw misuse(.unknownTransaction(id.description)) }
    guard transaction.state == .purchased || transaction.state == .restored else {
      throw misuse(.cannotRefund(id, reason: "it is \(transaction.state.name), not purchased"))
    }
    guard transaction.revocationDate == nil else { throw misuse(.cannotRefund(id, reason: "it was already refunded")) }
    if let failure = controls.failures[.refundRequest], roll(failure.chance) {
      throw misuse(.cannotRefund(id, reason: "the refund request failed with \(failure.error.name)"))
    }
    transaction.revocationDate = now
    transaction.revocationReason = reason
    transaction.signedTransaction = nil
    var extra: [LedgerChange] = []
    var events: [StoreEvent] = []
    if var record = subscriptionRecords[transaction.originalID],
      currentTransaction(of: record)?.id == transaction.id || record.productID == transaction.productID
    {
      // Refunding the current period revokes the subscription; it will not renew.
      record.status = .revoked
      record.autoRenew = false
      extra.append(put(record))
      events.append(.subscriptionStatusChanged(
        product: transaction.productID, original: transaction.originalID, status: .revoked, reason: "refunded"))
    }
    let saved = try commit([transaction], extra: extra)
    emit(saved.map { .transactionRevoked($0) } + events)
  }
}
