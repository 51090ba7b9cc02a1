import Foundation
import StoreEngine

extension LineParser {
  /// `buy … offer=ID` with `signed` (a correct `SKPaymentDiscount` signed with the storefront's
  /// promotional-offer key), `signature=bad` (a wrong one), or neither (no discount at all).
  mutating func offerSignature(for payment: Payment) throws(ScenarioIssue) -> ScenarioStep.Action {
    let signed = positionals.firstIndex { $0.text == "signed" }.map { positionals.remove(at: $0) }
    let signature = option("signature")
    if let signature, signature.value != "bad" {
      throw issue(signature.column, "Unknown signature '\(signature.value)'; write 'signed' for a good one or signature=bad.")
    }
    guard signed != nil || signature != nil else { return .command(.buy(payment)) }
    guard payment.offerID != nil else {
      throw issue((signed?.column ?? signature?.column) ?? verb.column, "A signature needs an offer: add offer=OFFER-ID.")
    }
    if let signed, signature != nil {
      throw issue(signed.column, "Write either 'signed' or signature=bad, not both.")
    }
    return .signedBuy(payment, valid: signed != nil)
  }
}
