import Foundation
import StoreEngine

extension ScenarioRunner {
  /// Makes a StoreKit 2 call as an app would and writes its line: the answer, or the error
  /// `fail API` simulates for it (B9).
  func perform(_ call: StoreKit2Call, line: Int) throws(StepError) {
    let record: StoreKit2Record
    switch call {
    case .currentEntitlements:
      record = .currentEntitlements(.init(transactions: try entitlements().map(StoreKit2Record.Transaction.init)))
    case .unfinished:
      let unfinished = StoreKit2Queries.unfinished(queue.unfinishedTransactions)
      record = .unfinished(.init(transactions: unfinished.map(StoreKit2Record.Transaction.init)))
    case .latest(let product):
      let latest = try ledgerQuery { () throws(LedgerError) in try StoreKit2Queries.latest(for: product, of: queue) }
      record = .latestTransaction(.init(productID: product.rawValue, transaction: latest.map(StoreKit2Record.Transaction.init)))
    case .sync:
      // AppStore.sync() is a restore to the engine; an app reads its entitlements again once it returns.
      try perform(.restore)
      let events = flush(line: line)
      guard events.contains(where: { if case .restoreFinished = $0 { true } else { false } }) else { return }
      record = .currentEntitlements(.init(transactions: try entitlements().map(StoreKit2Record.Transaction.init)))
    case .subscriptionStatus(let group):
      if let error = simulatedError(.subscriptionStatus) {
        record = .subscriptionStatus(.init(group: group, statuses: nil, error: .init(error)))
      } else {
        let statuses = try ledgerQuery { () throws(LedgerError) in try StoreKit2Queries.statuses(group: group, of: queue) }
        record = .subscriptionStatus(.init(group: group, statuses: statuses.map(Self.status), error: nil))
      }
    case .appTransaction:
      if let error = simulatedError(.appTransaction) {
        record = .appTransaction(.init(error: .init(error)))
      } else {
        record = .appTransaction(.init(bundleID: app.bundleID, environment: app.environment, account: queue.currentAccount))
      }
    case .manageSubscriptions:
      record = .manageSubscriptions(.init(error: simulatedError(.manageSubscriptions).map(StoreKit2Record.ErrorName.init)))
    }
    emit([.storeKit2(record)], line: line)
  }

  /// Remembers what the StoreKit 2 view reported, for its expectations.
  func noteStoreKit2(_ records: [EventRecord]) {
    for case .storeKit2(let record) in records {
      switch record {
      case .purchaseResult(let fields):
        let outcome: PurchaseOutcome =
          switch fields.result {
          case "pending": .pending
          case "userCancelled": .userCancelled
          default: .success(verification: fields.transaction?.verification)
          }
        purchaseOutcomes.append((Product.ID(fields.productID), outcome))
      case .purchaseError(let fields):
        purchaseOutcomes.append((Product.ID(fields.productID ?? ""), .threw(fields.error.name)))
      case .transactionUpdate:
        updatesCount += 1
      default:
        break
      }
    }
  }

  /// Checks a StoreKit 2 expectation; returns what was expected and what happened, or nil.
  func checkStoreKit2(_ expectation: ScenarioStep.Expectation) throws(StepError) -> String? {
    switch expectation {
    case .entitlement(let product, let expected):
      let entitled = try entitlements().contains { $0.productID == product }
      return entitled == expected ? nil
        : "expected Transaction.currentEntitlements \(expected ? "to include" : "not to include") \(product), but it \(entitled ? "does" : "does not")"
    case .storeKit2Unfinished(let count):
      let actual = StoreKit2Queries.unfinished(queue.unfinishedTransactions)
      return actual.count == count ? nil
        : "expected \(count) transactions in Transaction.unfinished, but there are \(actual.count): \(actual.map { "\($0.id) \($0.productID)" }.joined(separator: ", "))"
    case .purchaseResult(let product, let expected):
      guard let last = purchaseOutcomes.last(where: { product == nil || $0.product == product }) else {
        return "expected a purchase() result\(product.map { " for \($0)" } ?? ""), but no purchase() call has returned"
      }
      return expected.accepts(last.outcome) ? nil
        : "expected purchase() of \(last.product) to end \(expected.text), but it ended \(last.outcome.text)"
    case .updates(let count):
      return updatesCount == count ? nil
        : "expected \(count) transactions from Transaction.updates, but there were \(updatesCount)"
    default:
      return nil
    }
  }

  private func entitlements() throws(StepError) -> [PaymentTransaction] {
    StoreKit2Queries.currentEntitlements(of: queue)
  }

  /// Runs a ledger query; a ledger failure aborts the run like any other.
  private func ledgerQuery<Value>(_ query: () throws(LedgerError) -> Value) throws(StepError) -> Value {
    do { return try query() } catch { throw .engine(.ledger(error)) }
  }

  /// The error `fail API` sets for a call the engine does not see, drawn with its chance.
  private func simulatedError(_ api: StoreAPI) -> StoreKitError? {
    guard let failure = queue.controls.failures[api] else { return nil }
    if failure.chance >= 1 { return failure.error }
    return Double(generator.next() >> 11) / Double(1 << 53) < failure.chance ? failure.error : nil
  }

  private static func status(_ entry: (record: SubscriptionRecord, transaction: PaymentTransaction?)) -> StoreKit2Record.Status {
    StoreKit2Record.Status(
      state: entry.record.status.rawValue, productID: entry.record.productID.rawValue,
      originalTransactionID: entry.record.originalID.description, autoRenew: entry.record.autoRenew,
      renewalProductID: entry.record.renewalProductID.rawValue,
      expiresDate: EventFormatter.timestamp(entry.record.expiresDate),
      signedTransaction: entry.transaction?.signedTransaction,
      // B40: the renewal info as the store last signed it, not the one signed with the transaction.
      signedRenewalInfo: entry.record.signedRenewalInfo ?? entry.transaction?.signedRenewalInfo,
      verification: entry.transaction.map { StoreKit2View.verification(of: $0.signedTransaction) })
  }
}
