import Foundation
import StoreEngine

extension ScenarioRunner {
  /// Checks one expectation; returns a message saying what was expected and what happened, or nil.
  func check(_ expectation: ScenarioStep.Expectation) throws(StepError) -> String? {
    switch expectation {
    case .state(let reference, let state):
      let transaction = try lookup(reference)
      return transaction.state == state ? nil
        : "expected transaction \(transaction.id) (\(transaction.productID)) to be \(state.name), but it is \(transaction.state.name)"
    case .error(let reference, let error):
      let transaction = try lookup(reference)
      switch (transaction.error, error) {
      case (nil, nil): return nil
      case (let actual?, let expected?) where actual.matches(expected): return nil
      default: break
      }
      return "expected transaction \(transaction.id) to have error \(error.map(\.description) ?? "none"), but it has \(transaction.error.map(\.description) ?? "none")"
    case .owned(let product, let owned):
      let actual = try ledgerRead { try queue.entitlements() }.owns(product)
      return actual == owned ? nil : "expected \(product) to be \(owned ? "owned" : "not owned"), but it is \(actual ? "owned" : "not owned")"
    case .quantity(let product, let count):
      let actual = try ledgerRead { try queue.entitlements() }.consumableCounts[product] ?? 0
      return actual == count ? nil : "expected \(count) units of \(product) bought, but \(actual) were"
    case .unfinished(let count):
      let unfinished = try unfinishedTransactions()
      return unfinished.count == count ? nil
        : "expected \(count) unfinished transactions, but there are \(unfinished.count): \(unfinished.map { "\($0.id) \($0.productID) \($0.state.name)" }.joined(separator: ", "))"
    case .transactions(let count):
      let actual = try ledgerRead({ try queue.transactionCount() })
      return actual == count ? nil : "expected \(count) transactions in the account's history, but there are \(actual)"
    case .restored(let count):
      guard let actual = lastRestoredCountValue else { return "expected a finished restore of \(count), but no restore finished" }
      return actual == count ? nil : "expected \(count) restored transactions, but \(actual) were restored"
    case .prompt(let name):
      let actual: String =
        switch readModel?.prompt {
        case nil: "none"
        case .signIn: "sign-in"
        case .confirm(_, _, _, let owned, _, _): owned ? "already-owned" : "confirm"
        }
      return actual == name ? nil : "expected the \(name) sheet, but the sheet is \(actual)"
    case .account(let name):
      let actual = try present().currentAccount
      return actual == name ? nil : "expected account \(name ?? "none"), but it is \(actual ?? "none")"
    case .ageRating(let code):
      let actual = queue.controls.ageRatingCode
      return actual == code ? nil
        : "expected AppStore.ageRatingCode to be \(code.map(String.init) ?? "none"), but it is \(actual.map(String.init) ?? "none")"
    case .status(let product, let status):
      let present = try present()
      let records = present.subscriptions.filter { $0.account == present.currentAccount }
      guard let record = records.last(where: { $0.productID == product || $0.renewalProductID == product }) else {
        return "expected \(product) to be \(status.rawValue), but the account has no subscription to it"
      }
      return record.status == status ? nil : "expected \(product) to be \(status.rawValue), but it is \(record.status.rawValue)"
    case .expires(let reference, let date):
      let transaction = try lookup(reference)
      guard transaction.expiresDate != date else { return nil }
      let actual = transaction.expiresDate.map { EventFormatter.timestamp($0) } ?? "never"
      return "expected transaction \(transaction.id) to expire at \(EventFormatter.timestamp(date)), but it expires \(actual)"
    case .commitment(let reference, let period, let total):
      let transaction = try lookup(reference)
      let actual = transaction.commitment.map { "\($0.billingPeriodNumber)/\($0.totalBillingPeriods)" } ?? "none"
      let expected = period.map { "\($0)/\(total ?? 0)" } ?? "none"
      return actual == expected ? nil
        : "expected transaction \(transaction.id) to be \(expected == "none" ? "in no commitment" : "payment \(expected) of a commitment"), but it is \(actual == "none" ? "in none" : "payment \(actual)")"
    case .price(let reference, let amount):
      let transaction = try lookup(reference)
      return transaction.price == amount ? nil
        : "expected transaction \(transaction.id) to charge \(amount) \(transaction.currency), but it charged \(transaction.price)"
    case .bundle, .previous, .revocation:
      return try checkBundle(expectation)
    case .signed(let reference):
      let transaction = try lookup(reference)
      guard let jws = transaction.signedTransaction else {
        return "expected transaction \(transaction.id) to carry a signedTransaction, but it has none"
      }
      // Surprising behaviour (expect signed): presence is not enough, the signature must verify.
      for (field, text) in [("signedTransaction", jws), ("signedRenewalInfo", transaction.signedRenewalInfo)] {
        if let text, let problem = verifier?.problem(text) {
          return "expected transaction \(transaction.id) to carry a verified \(field), but its signature does not verify: \(problem)"
        }
      }
      return nil
    case .unverified(let reference):
      let transaction = try lookup(reference)
      guard let verifier else { return "expect unverified needs a signature verifier, and this run has none" }
      guard let jws = transaction.signedTransaction else {
        return "expected transaction \(transaction.id) to carry an unverified signedTransaction, but it has none"
      }
      return verifier.problem(jws) != nil ? nil : "expected transaction \(transaction.id) to be unverified, but its signedTransaction verifies"
    case .crash:
      guard crashedValue != nil else { return "expected the line before to crash the app, but it did not" }
      crashedValue = nil
      return nil
    case .lastEvent(let name):
      return lastEventNameValue == name ? nil : "expected the last event to be \(name), but it was \(lastEventNameValue ?? "nothing")"
    case .retentionSheet(let kind, let detail):
      guard let shown = lastRetentionSheetValue else { return "expected the retention sheet to be \(kind), but no cancel flow ran" }
      let details = [shown.messageIdentifier, shown.alternateProductID, shown.offerIdentifier].compactMap { $0 }
      guard shown.sheet == kind, detail.map(details.contains) ?? true else {
        return "expected the retention sheet to be \(kind)\(detail.map { " with \($0)" } ?? ""), but it was \(shown.sheet)"
          + (details.isEmpty ? "" : " with \(details.joined(separator: ", "))")
          + (shown.fallbackReason.map { " (default shown: \($0))" } ?? "")
      }
      return nil
    case .misuse(let name):
      return lastMisuseValue == name ? nil : "expected the last API misuse to be \(name), but it was \(lastMisuseValue ?? "none")"
    case .entitlement, .storeKit2Unfinished, .purchaseResult, .updates:
      return try checkStoreKit2(expectation)
    case .notification, .notifications, .delivered:
      return try checkNotifications(expectation)
    case .offerCodes, .redemptions, .offer:
      return try checkOfferCodes(expectation)
    }
  }

  func lookup(_ reference: TransactionReference) throws(StepError) -> PaymentTransaction {
    // An expect about a transaction that does not exist fails; it is not an API misuse to skip.
    let id: PaymentTransaction.ID
    switch reference {
    case .id(let value): id = value
    case .last:
      guard let last = queue.lastTransactionID else { throw .assertion("expected a last transaction, but there is none yet") }
      id = last
    case .product(let product):
      guard let found = try ledgerRead({ try queue.latestTransaction(matching: TransactionMatch(product: product)) }) else {
        throw .assertion("expected a transaction of \(product), but the account has none")
      }
      id = found.id
    }
    // The present has what is current; a finished or past one is the ledger's.
    if let current = try present().transaction(id) { return current }
    guard let transaction = try ledgerRead({ try queue.ledger.transactions([id]).first }) else {
      throw .assertion("expected a transaction \(id), but there is none")
    }
    return transaction
  }

  /// The run's read model (``ScenarioReadModel``), current.
  func present() throws(StepError) -> LedgerImage {
    guard let readModel else { throw .other("expect runs only inside a scenario run") }
    do { return try readModel.present() } catch { throw .engine(.ledger(error)) }
  }

  /// The signed-in account's unfinished transactions in this app's queue, as the read model has them.
  func unfinishedTransactions() throws(StepError) -> [PaymentTransaction] {
    let present = try present()
    guard let account = present.currentAccount else { return [] }
    return present.transactions.filter { $0.account == account && !$0.isFinished && queue.machine.isInThisAppsQueue($0) }
  }

  /// Runs a ledger read for an assertion; a ledger failure aborts the run like any other.
  func ledgerRead<Value>(_ read: () throws -> Value) throws(StepError) -> Value {
    do {
      return try read()
    } catch let error as LedgerError {
      throw .engine(.ledger(error))
    } catch {
      throw .other(String(describing: error))
    }
  }
}
