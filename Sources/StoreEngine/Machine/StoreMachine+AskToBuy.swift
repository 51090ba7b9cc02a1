import Foundation

extension StoreMachine {
  /// Ask to Buy: the payment is deferred and a request goes to the parent. A request for a product
  /// the account is already waiting on is consolidated into that one (the new transaction is
  /// deferred too, as the device shows it, but one approval makes one purchase).
  mutating func deferForApproval(_ purchasing: PaymentTransaction) throws(EngineError) {
    var transaction = purchasing
    transaction.state = .deferred
    step.emit(.transactionsUpdated([try put(transaction)]))
    if var open = askToBuyRequests.values.filter({
      $0.status == .pending && $0.account == transaction.account && $0.productID == transaction.productID
    }).min(by: { $0.id < $1.id }) {
      open.transactionIDs.append(transaction.id)
      open.requestedDate = now
      put(open)
    } else {
      put(AskToBuyRequest(
        id: transaction.id, account: transaction.account, productID: transaction.productID,
        quantity: transaction.quantity, applicationUsername: transaction.applicationUsername,
        offerID: transaction.offerID, transactionIDs: [transaction.id], requestedDate: now))
    }
  }

  /// The parent answers the request that transaction `id` belongs to, now or after `delay`.
  ///
  /// A decline reaches the app as nothing at all: StoreKit 2 documents only the success path, and
  /// in Xcode a declined transaction stays deferred. A later approval still completes it.
  mutating func answerAskToBuy(_ id: PaymentTransaction.ID, approve: Bool, after delay: TimeInterval?) throws(EngineError) {
    guard var request = try askToBuyRequest(containing: id) else { throw .notDeferred(id) }
    if let delay {
      request.scheduledAnswer = .init(approve: approve, date: now.addingTimeInterval(max(0, delay)))
      put(request)
    } else {
      try carryOut(&request, approve: approve)
    }
  }

  /// Carries out a scheduled answer that has come due.
  mutating func carryOutScheduledAnswer(_ requestID: PaymentTransaction.ID) throws(EngineError) {
    guard var request = askToBuyRequests[requestID], request.isOpen, let answer = request.scheduledAnswer else { return }
    try carryOut(&request, approve: answer.approve)
  }

  private mutating func carryOut(_ request: inout AskToBuyRequest, approve: Bool) throws(EngineError) {
    request.scheduledAnswer = nil
    guard approve else {
      request.status = .declined
      put(request)
      step.emit(.askToBuyAnswered(request, approved: false))
      return
    }
    request.status = .approved
    let waiting = request.transactionIDs.compactMap { transactions[$0] }.filter { $0.state == .deferred && !$0.isFinished }
    let purchased: PaymentTransaction.ID
    if let first = waiting.first {
      purchased = first.id
      request.purchasedTransactionID = purchased
      put(request)
      step.emit(.askToBuyAnswered(request, approved: true))
      try deliverPurchase(first)
      // One approval, one purchase: the duplicate requests leave the queue.
      var removed: [PaymentTransaction] = []
      for duplicate in waiting.dropFirst() {
        var finished = duplicate
        finished.isFinished = true
        removed.append(try put(finished))
      }
      if !removed.isEmpty { step.emit(.transactionsRemoved(removed)) }
    } else {
      // The app already finished the deferred transaction: the purchase still arrives, as a new
      // transaction that the app has to finish (it is delivered again at every launch until then).
      let product = catalog.product(request.productID)
      var fresh = PaymentTransaction(
        id: try makeTransactionID(), account: request.account, productID: request.productID,
        productKind: product?.kind ?? .consumable, quantity: request.quantity,
        applicationUsername: request.applicationUsername, purchaseDate: now,
        currency: Self.currency(of: controls.storefront), storefront: controls.storefront)
      fresh.offerID = request.offerID
      // The app that asked: its deferred transaction's.
      for id in request.transactionIDs where fresh.appBundleID == nil { fresh.appBundleID = transactions[id]?.appBundleID }
      fresh.subscriptionGroupID = product?.subscription?.groupID
      purchased = fresh.id
      request.purchasedTransactionID = purchased
      put(request)
      step.emit(.askToBuyAnswered(request, approved: true))
      try deliverPurchase(fresh)
    }
    lastTransactionID = purchased
  }

  /// The open request a transaction belongs to. A deferred transaction from a ledger written before
  /// requests were stored gets one now.
  private mutating func askToBuyRequest(containing id: PaymentTransaction.ID) throws(EngineError) -> AskToBuyRequest? {
    if let request = askToBuyRequests.values.first(where: { $0.isOpen && $0.transactionIDs.contains(id) }) {
      return request
    }
    guard let transaction = transactions[id] else {
      if askToBuyRequests.values.contains(where: { $0.transactionIDs.contains(id) }) { throw .notDeferred(id) }
      throw .unknownTransaction(id.description)
    }
    guard transaction.state == .deferred else { return nil }
    // B14: a finished deferred transaction outside every open request is a duplicate the store
    // consolidated into a request already approved ("Once approved, only 1 purchase is
    // completed"); the app's own finishing (B13) leaves its request open, found above. Only a
    // ledger from before requests were stored loses B13 for such a transaction.
    if transaction.isFinished { throw .notDeferred(id) }
    return AskToBuyRequest(
      id: id, account: transaction.account, productID: transaction.productID, quantity: transaction.quantity,
      applicationUsername: transaction.applicationUsername, offerID: transaction.offerID, transactionIDs: [id],
      requestedDate: transaction.purchaseDate)
  }

  /// Records an Ask to Buy request as changed in this step.
  mutating func put(_ request: AskToBuyRequest) {
    if request.isOpen { askToBuyRequests[request.id] = request } else { askToBuyRequests[request.id] = nil }
    step.changes.append(.putAskToBuyRequest(request))
  }

  /// The open Ask to Buy requests of `account` (default: the signed-in one), oldest first.
  public func askToBuyRequests(account: String? = nil) -> [AskToBuyRequest] {
    guard let name = account ?? currentAccount else { return [] }
    return askToBuyRequests.values.filter { $0.account == name }.sorted { $0.id < $1.id }
  }

  /// Takes the ledger's versions of Ask to Buy requests in (another process made or answered them).
  public mutating func absorb(_ requests: [AskToBuyRequest]) {
    for request in requests {
      askToBuyRequests[request.id] = request.isOpen ? request : nil
    }
  }
}
