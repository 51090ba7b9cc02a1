import Foundation
package import StoreEngine
internal import StoreScenario

/// Translating one step's engine events into StoreKit's callbacks and StoreKit 2's results.
extension StoreKitEnvironment {
  /// Delivers `events` (one step's, in order) as the app hears them: only the signed-in account's
  /// transactions (N6), StoreKit 1 callbacks scheduled on the main queue in one block (so steps
  /// keep their order), StoreKit 2 results and updates at once. Called with the lock held.
  func deliver(_ events: [StoreEvent], from store: OpenStore) {
    attendGlitches(store)
    guard !events.isEmpty else { return }
    let account = store.queue.currentAccount
    var callbacks: [QueueCallback] = []
    var logged: [String] = []
    defer { if !logged.isEmpty { writeAppLog(logged, in: store) } }
    for event in events {
      guard let heard = news(in: event, from: store)?.heard(by: account) else { continue }
      if store.configuration.attachment != nil { logged += Self.logFormatter.lines(for: heard, at: store.queue.now) }
      store.view.glitches = store.queue.controls
      if let routes = store.view.routes(for: heard, lookup: { try? store.queue.transaction($0) }) {
        for route in routes { deliver(route, from: store) }
      }
      if !store.view.glitchNotes.isEmpty {
        if store.configuration.attachment != nil { logged += store.view.glitchNotes }
        store.view.glitchNotes = []
      }
      deliverStoreKit2News(heard, from: store)
      // The queue's delegate is asked first (a storefront change, a price increase).
      callbacks += questions(for: heard, in: store)
      switch heard {
      case .transactionsUpdated(let list):
        callbacks.append(.updated(list.map { paymentTransaction(for: $0, in: store) }))
      case .transactionsRemoved(let list):
        callbacks.append(.removed(list.map { paymentTransaction(for: $0, in: store) }))
        for transaction in list { paymentTransactions[transaction.id] = nil }
      case .restoreFinished:
        callbacks.append(.restoreFinished)
      case .restoreFailed(let error):
        callbacks.append(.restoreFailed(Self.storeKit1Error(error)))
      case .storefrontChanged(let code):
        callbacks.append(.storefrontChanged)
        let storefront = Storefront(code: code)
        for listener in storefrontListeners.values { listener.yield(storefront) }
      case .transactionRevoked(let transaction) where transaction.familySharedBy != nil:
        callbacks.append(.revoked([transaction.productID.rawValue]))
      case .productsResponse(let request, let products, let invalid):
        if !invalid.isEmpty { tellOfUnsoldProducts(invalid, in: store) }
        answer(request, with: .success(ProductsAnswer(products: products, invalid: invalid)))
      case .productsRequestFailed(let request, let error):
        answer(request, with: .failure(error))
      default:
        break
      }
    }
    if !callbacks.isEmpty { SKPaymentQueue.default().schedule(callbacks) }
  }

  /// What another process committed is news to an attached app where its machine says so
  /// (``StoreEvent/transactionsChangedElsewhere(_:)``: an Ask to Buy approved, a renewal the
  /// storefront's clock made, a purchase another process completed); those reach the app as StoreKit
  /// reports them, as updated transactions. Amended rows are the views' business, not the app's.
  private func news(in event: StoreEvent, from store: OpenStore) -> StoreEvent? {
    switch event {
    case .transactionsAmended: nil
    case .transactionsChangedElsewhere(let list): store.configuration.attachment == nil ? nil : .transactionsUpdated(list)
    default: event
    }
  }

  private func answer(_ request: Int, with result: Result<ProductsAnswer, StoreEngine.StoreKitError>) {
    if let call = productCalls.removeValue(forKey: request) {
      switch result {
      case .success(let answer): call.resume(returning: answer)
      case .failure(let error): call.resume(throwing: Self.storeKit2Error(error))
      }
    } else if let waiting = productRequests.removeValue(forKey: request) {
      answerProductsRequest(waiting, with: result)
    } else {
      unclaimedProducts[request] = result
    }
  }

  private func deliver(_ route: StoreKit2View.Route, from store: OpenStore) {
    switch route {
    case .update(let transaction):
      // Verifying a JWS is most of a step's cost: only for someone listening.
      guard !updateListeners.isEmpty else { return }
      let result = verification(of: transaction, in: store)
      if glitchStrikes(.lateUpdates, in: store, note: "Transaction.updates holds \(transaction.id.rawValue) back \(Int(StoreGlitch.lateUpdatesDelay)) s") {
        heldUpdates.append((due: store.queue.now.addingTimeInterval(StoreGlitch.lateUpdatesDelay), result: result))
        return
      }
      for listener in updateListeners.values { listener.yield(result) }
    case .purchase(let call, _, let routing):
      // The purchase has its outcome: its storefront-change question is over.
      _ = StoreKit2Registry.shared.takeStorefrontHandler(call.rawValue)
      let outcome: Result<Product.PurchaseResult, any Error> =
        switch routing {
        case .success(let transaction): .success(.success(verification(of: transaction, in: store)))
        case .pending: .success(.pending)
        case .userCancelled: .success(.userCancelled)
        case .failed(let error): .failure(Self.storeKit2Error(error))
        }
      if let waiting = purchaseCalls.removeValue(forKey: call) {
        waiting.resume(with: outcome)
      } else {
        unclaimedPurchases[call] = outcome
      }
    }
  }

  /// A StoreKit 2 transaction with its verification against the store's sandbox root.
  package func verification(of transaction: StoreEngine.PaymentTransaction, in store: OpenStore) -> VerificationResult<Transaction> {
    let jws = transaction.signedTransaction ?? ""
    let made = Transaction(transaction, bundleID: store.configuration.bundleID, jws: jws)
    guard !jws.isEmpty else { return .unverified(made, .missingRequiredProperties) }
    do {
      _ = try store.verifier().verify(jws)
      return .verified(made)
    } catch {
      return .unverified(made, Self.simulatedVerificationError(in: store) ?? .invalidSignature)
    }
  }

  /// The verification error a test session set (`setSimulatedError(.verification(…))`, kept by the
  /// engine as `verification.<case>`): a transaction whose signature the failure broke reports it.
  static func simulatedVerificationError<T>(in store: OpenStore) -> VerificationResult<T>.VerificationError? {
    guard let name = store.queue.controls.failures[.verification]?.error.storeKit2Name, name.hasPrefix("verification.") else {
      return nil
    }
    let all: [VerificationResult<T>.VerificationError] = [
      .revokedCertificate, .invalidCertificateChain, .invalidDeviceVerification, .invalidEncoding, .invalidSignature,
      .missingRequiredProperties,
    ]
    return all.first { "verification.\($0)" == name }
  }

  /// What a StoreKit 2 app sees for an engine error: the `StoreKitError` or `Product.PurchaseError`
  /// case it was simulated as, or the one that means the same (DECISIONS §14).
  package static func storeKit2Error(_ error: StoreEngine.StoreKitError) -> any Error {
    let modern = StoreKit2Error(for: error)
    switch modern.kind {
    case .purchaseError: return Product.PurchaseError(name: modern.name) ?? StoreKitError.unknown
    case .storeKitError: return StoreKitError(name: modern.name)
    }
  }
}
