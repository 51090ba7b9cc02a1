import Foundation

extension StoreMachine {
  /// Extends every active chain of the product (in the request's storefronts) as
  /// ``extendRenewalDate(_:days:requestID:)`` does one, in this one step, and records the outcome.
  /// Apple carries a mass extension out over hours; here it is done at once, so its status is
  /// complete as soon as it can be asked for.
  mutating func extendRenewalDates(_ request: MassExtension) throws(EngineError) {
    guard catalog.product(request.productID)?.kind == .autoRenewableSubscription else {
      throw .notSubscriptionProduct(request.productID.rawValue)
    }
    var outcome = request
    outcome.succeeded = 0
    outcome.failed = 0
    let chains = subscriptionRecords.values
      .filter { $0.productID == request.productID && $0.status == .subscribed }
      .sorted { $0.originalID < $1.originalID }
    for record in chains {
      if let storefronts = request.storefronts {
        let storefront = currentTransaction(of: record)?.storefront ?? transactions[record.originalID]?.storefront
        guard let storefront, storefronts.contains(storefront) else { continue }
      }
      do {
        try extendRenewalDate(record.originalID, days: request.days, requestID: request.requestID, notifying: false)
        outcome.succeeded += 1
      } catch .cannotExtend {
        outcome.failed += 1
        notify(.renewalExtension, .failure, about: currentTransaction(of: record)?.id)
      }
    }
    outcome.completeDate = now
    step.changes.append(.putMassExtension(outcome))
    notify(.renewalExtension, .summary, summary: outcome)
  }
}
