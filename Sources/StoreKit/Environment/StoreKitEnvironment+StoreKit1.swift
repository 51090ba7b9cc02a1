import Foundation
internal import StoreEngine

/// The StoreKit 1 calls, as engine commands.
extension StoreKitEnvironment {
  func canMakePayments() -> Bool {
    (try? read { $0.queue.controls.canMakePayments }) ?? false
  }

  func currentStorefront() -> SKStorefront? {
    try? read { store in
      let code = store.queue.controls.storefront
      let id = StoreEngine.Storefront.lookup(code)?.id ?? 0
      return SKStorefront(countryCode: code, identifier: String(id))
    }
  }

  func queueTransactions() -> [SKPaymentTransaction] {
    (try? read { store in store.queue.unfinishedTransactions.map { paymentTransaction(for: $0, in: store).0 } }) ?? []
  }

  /// A new observer hears the queue's unfinished transactions, as at launch.
  func deliverUnfinished(to observer: any SKPaymentTransactionObserver) {
    let pairs = (try? read { store in store.queue.unfinishedTransactions.map { paymentTransaction(for: $0, in: store) } }) ?? []
    guard !pairs.isEmpty else { return }
    SKPaymentQueue.default().schedule([.updated(pairs)], only: observer)
  }

  func add(_ payment: SKPayment) {
    let request = enginePayment(payment)
    locked {
      do {
        // Ask to Buy for this payment only: the control is on for its step and back after it.
        var askToBuy: Bool?
        if payment.simulatesAskToBuyInSandbox {
          askToBuy = try read { $0.queue.controls.askToBuy }
          try perform(.setControl(.askToBuy(true)))
        }
        defer { if let askToBuy { _ = try? perform(.setControl(.askToBuy(askToBuy))) } }
        try perform(.buy(request))
      } catch {
        report("the payment for \(payment.productIdentifier) could not be added: \(describe(error))")
      }
    }
  }

  /// Finishes `transaction`; a misuse StoreKit raises on is reported with what names the transaction
  /// (the caller's file and line cannot be had: Apple's signature has no place for them).
  func finish(_ transaction: SKPaymentTransaction) {
    let product = transaction.payment.productIdentifier
    guard let engineID = transaction.engineID else {
      reportMisuse("finishTransaction(_:) was given a transaction this store did not make (\(type(of: transaction)) for '\(product)'); it does nothing.")
      return
    }
    do {
      try perform(.finish(.init(engineID)))
    } catch .engine(.cannotFinishPurchasing) {
      reportMisuse("Cannot finish a purchasing transaction (\(product), queue id \(engineID)); StoreKit raises an exception here.")
    } catch .engine(.alreadyFinished) {
      reportMisuse("transaction \(transaction.transactionIdentifier ?? String(engineID)) (\(product)) is already finished; finishing it again does nothing.")
    } catch {
      reportMisuse("finishing \(product) failed: \(describe(error))")
    }
  }

  /// Restores the account's purchases; with `applicationUsername`, only those whose payment carried it.
  func restore(applicationUsername: String? = nil) {
    do {
      try perform(applicationUsername.map { .restoreFor(applicationUsername: $0) } ?? .restore)
    } catch {
      report("restoring completed transactions failed: \(describe(error))")
    }
  }

  func startProductsRequest(_ request: SKProductsRequest) {
    locked {
      do {
        let step = try perform(.requestProducts(request.productIdentifiers.sorted()))
        guard let number = step.productsRequest else { return }
        if let answer = unclaimedProducts.removeValue(forKey: number) {
          answerProductsRequest(request, with: answer)
        } else {
          productRequests[number] = request
        }
      } catch {
        report("the products request could not be sent: \(describe(error))")
        // As StoreKit does when the store cannot be reached: the delegate hears it failed.
        answerProductsRequest(request, with: .failure(.unknown))
      }
    }
  }

  /// Tells the request's delegate its answer, on the main queue. Called with the lock held.
  func answerProductsRequest(_ request: SKProductsRequest, with answer: Result<ProductsAnswer, StoreEngine.StoreKitError>) {
    let response: Result<SKProductsResponse, any Error>
    switch answer {
    case .success(let found):
      let products = (try? read { store in
        found.products.compactMap { id in
          store.queue.catalog.product(id).map {
            SKProduct($0, locale: store.queue.controls.locale, storefront: store.queue.controls.storefront)
          }
        }
      }) ?? []
      response = .success(SKProductsResponse(products: products, invalidProductIdentifiers: found.invalid))
    case .failure(let error):
      response = .failure(Self.storeKit1Error(error))
    }
    let box = RequestAnswer(request: request, response: response)
    DispatchQueue.main.async {
      guard !box.request.isCancelled, let delegate = (box.request as SKRequest).delegate else { return }
      switch box.response {
      case .success(let response):
        (delegate as? any SKProductsRequestDelegate)?.productsRequest(box.request, didReceive: response)
        delegate.requestDidFinish(box.request)
      case .failure(let error):
        delegate.request(box.request, didFailWithError: error)
      }
    }
  }

  func refreshReceipt(_ request: SKReceiptRefreshRequest) {
    let outcome: (any Error)?
    do {
      _ = try read { store in try store.writeReceipt() }
      outcome = nil
    } catch {
      report("the app receipt could not be written: \(describe(error))")
      outcome = SKError.reported(.unknown)
    }
    let box = ReceiptAnswer(request: request, error: outcome)
    DispatchQueue.main.async {
      guard !box.request.isCancelled, let delegate = box.request.delegate else { return }
      if let error = box.error { delegate.request(box.request, didFailWithError: error) } else { delegate.requestDidFinish(box.request) }
    }
  }

  func currentReceiptURL() -> URL? {
    do {
      return try read { store in try store.writeReceipt() }
    } catch {
      report("the app receipt could not be written: \(describe(error))")
      return nil
    }
  }

  // MARK: Translation

  /// The engine payment for an `SKPayment`.
  func enginePayment(_ payment: SKPayment) -> StoreEngine.Payment {
    let discount = payment.paymentDiscount.map {
      PaymentDiscount(
        identifier: $0.identifier, keyIdentifier: $0.keyIdentifier, nonce: $0.nonce, signature: $0.signature,
        timestamp: $0.timestamp.int64Value)
    }
    return StoreEngine.Payment(
      productID: .init(payment.productIdentifier), quantity: payment.quantity, applicationUsername: payment.applicationUsername,
      offerID: discount?.identifier, discount: discount)
  }

  /// The one object of `transaction` and what the app sees of it now. Called with the lock held.
  func paymentTransaction(
    for transaction: StoreEngine.PaymentTransaction, in store: OpenStore
  ) -> (SKPaymentTransaction, SKPaymentTransaction.Snapshot) {
    let snapshot = Self.snapshot(of: transaction, in: store)
    if let known = paymentTransactions[transaction.id] { return (known, snapshot) }
    let made = SKPaymentTransaction(engineID: transaction.id.rawValue, snapshot: snapshot)
    paymentTransactions[transaction.id] = made
    return (made, snapshot)
  }

  static func snapshot(of transaction: StoreEngine.PaymentTransaction, in store: OpenStore?) -> SKPaymentTransaction.Snapshot {
    let state = SKPaymentTransactionState(rawValue: transaction.state.rawValue) ?? .failed
    // B3: StoreKit gives an identifier and a date only to purchased and restored transactions.
    let identified = state == .purchased || state == .restored
    let payment = SKMutablePayment(productIdentifier: transaction.productID.rawValue)
    payment.quantity = transaction.quantity
    payment.applicationUsername = transaction.applicationUsername
    var original: SKPaymentTransaction?
    if transaction.originalID != transaction.id, let store, let first = try? store.queue.transaction(transaction.originalID) {
      original = SKPaymentTransaction(engineID: first.id.rawValue, snapshot: snapshot(of: first, in: nil))
    }
    return SKPaymentTransaction.Snapshot(
      state: state, identifier: identified ? transaction.id.description : nil, date: identified ? transaction.purchaseDate : nil,
      error: state == .failed ? storeKit1Error(transaction.error ?? .unknown) : nil, original: original,
      payment: SKPayment(copying: payment))
  }

  /// What a StoreKit 1 app sees for an engine error: an ``SKError``, or the sandbox server's NSError.
  static func storeKit1Error(_ error: StoreEngine.StoreKitError) -> any Error {
    guard error.domain == StoreEngine.StoreKitError.skErrorDomain else {
      return NSError(domain: error.domain, code: error.code, userInfo: [NSLocalizedDescriptionKey: "An unknown error occurred"])
    }
    return SKError.reported(SKError.Code(rawValue: error.code) ?? .unknown)
  }

  func describe(_ error: any Error) -> String {
    switch error as? StorePerformError {
    case .open(let failure): failure.description
    case .engine(let failure): failure.description
    case .other(let text): text
    case nil: String(describing: error)
    }
  }
}

/// A products response as the engine gave it.
struct ProductsAnswer: Sendable {
  var products: [StoreEngine.Product.ID]
  var invalid: [String]
}

private struct RequestAnswer: @unchecked Sendable {
  let request: SKProductsRequest
  let response: Result<SKProductsResponse, any Error>
}

private struct ReceiptAnswer: @unchecked Sendable {
  let request: SKReceiptRefreshRequest
  let error: (any Error)?
}
