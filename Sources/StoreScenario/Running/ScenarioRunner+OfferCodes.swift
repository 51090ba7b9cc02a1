import Foundation
import StoreEngine

extension ScenarioRunner {
  /// The code a `redeem` line types when it runs.
  func offerCode(_ typed: ScenarioStep.TypedCode) throws(StepError) -> String {
    switch typed {
    case .typed(let code): return code
    case .nextOneTime:
      guard let code = queue.offerCodes.first(where: { $0.kind == .oneTime && !$0.isUsedUp }) else {
        throw .assertion("expected a one-time offer code nobody redeemed yet, but there is none; generate some with `offer-codes generate`")
      }
      return code.code
    case .last:
      guard let code = lastTypedCode else { throw .assertion("expected an earlier `redeem` line for last-code, but there is none") }
      return code
    }
  }

  /// Checks the offer-code expectations (B87–B89).
  func checkOfferCodes(_ expectation: ScenarioStep.Expectation) throws(StepError) -> String? {
    switch expectation {
    case .offerCodes(let count):
      let actual = queue.offerCodes.count
      return actual == count ? nil : "expected \(count) offer codes, but the store has \(actual)"
    case .redemptions(let typed, let count):
      let text = typed == "last-code" ? try offerCode(.last) : typed
      guard let code = queue.offerCodes.first(where: { $0.code == OfferCode.typed(text).uppercased() }) else {
        return "expected offer code \(text) to have \(count) redemptions, but the store has no such code"
      }
      return code.redemptions == count ? nil : "expected offer code \(code.code) to have \(count) redemptions, but it has \(code.redemptions)"
    case .offer(let reference, let kind, let mode):
      let transaction = try lookup(reference)
      let actualKind = transaction.offerType?.scenarioName
      let actualMode = transaction.offerPaymentMode?.rawValue
      if kind == nil, actualKind == nil { return nil }
      return actualKind == kind && actualMode == mode ? nil
        : "expected transaction \(transaction.id) to apply offer \(kind.map { "\($0) \(mode ?? "")" } ?? "none"), but it applied \(actualKind.map { "\($0) \(actualMode ?? "none")" } ?? "none")"
    case .price(let reference, let amount):
      let transaction = try lookup(reference)
      return transaction.price == amount ? nil : "expected transaction \(transaction.id) to charge \(amount), but it charged \(transaction.price)"
    default:
      return nil
    }
  }
}
