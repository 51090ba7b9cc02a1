import Foundation
import StoreEngine

extension ScenarioRunner {
  /// `cancel-flow PRODUCT`: the customer's subscription page, then "Cancel Subscription": the
  /// storefront asks the developer's realtime endpoint (through ``retentionFlow``), writes a
  /// `retentionSheet` line, and does what the customer chose. Accepting an alternate product buys
  /// it (a switch within the group); accepting a promotional offer buys the product with the offer's
  /// signature, which the store checks as any signed offer (a bad one fails the purchase with Apple's
  /// error, and nothing changes); cancelling turns auto-renew off.
  func cancelFlow(_ product: Product.ID, choice: RetentionChoice, line: Int) throws(StepError) {
    guard let retentionFlow else { throw .other("cancel-flow needs the storefront's HTTP client; run the scenario with `storefront run`.") }
    let subscription = try resolve(.product(product))
    let found: PaymentTransaction?
    do { found = try queue.transaction(subscription) } catch { throw .engine(.ledger(error)) }
    guard let original = found?.originalID else { throw .engine(.unknownTransaction(product.rawValue)) }
    let locale = queue.controls.locale.replacingOccurrences(of: "_", with: "-")
    let result = retentionFlow(RetentionFlowRequest(productID: product, originalTransactionID: original.description, locale: locale))
    let shown = EventRecord.RetentionSheetShown(productID: product, result: result)
    lastRetentionSheetValue = shown
    emit([.retentionSheet(shown)], line: line)
    switch choice {
    case .dismiss:
      return
    case .cancel:
      try perform(.setAutoRenew(subscription, false))
    case .accept:
      switch result.decision.sheet {
      case .alternateProduct(let alternate, _, _):
        try perform(.buy(Payment(productID: alternate)))
      case .promotionalOffer(let offer, _, _):
        guard let payment = offer.payment(for: product) else { throw .other("the offer on the cancel sheet cannot be bought") }
        try perform(.buy(payment))
      case .plain, .message:
        // A message offers nothing to accept: the sheet closes.
        return
      }
    }
  }
}
