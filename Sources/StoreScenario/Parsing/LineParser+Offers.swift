import Foundation
import StoreEngine

extension LineParser {
  /// `buy … offer=ID` with `signed` (a correct `SKPaymentDiscount` signed with the storefront's
  /// promotional-offer key), `signature=bad` (a wrong one), or neither (no discount at all).
  mutating func offerSignature(for payment: Payment) throws(ScenarioIssue) -> ScenarioStep.Action {
    let signed = positionals.firstIndex { $0.text == "signed" }.map { positionals.remove(at: $0) }
    let jws = positionals.firstIndex { $0.text == "jws" }.map { positionals.remove(at: $0) }
    let intro = option("intro")
    let signature = option("signature")
    if let signature, signature.value != "bad" {
      throw issue(signature.column, "Unknown signature '\(signature.value)'; write 'signed' for a good one or signature=bad.")
    }
    if let intro, intro.value != "allow", intro.value != "withhold" {
      throw issue(intro.column, "Unknown intro '\(intro.value)'; write intro=allow or intro=withhold (the server's signed eligibility).")
    }
    if jws != nil || intro != nil {
      if let signed { throw issue(signed.column, "Write either 'signed' (SKPaymentDiscount) or 'jws' (a compact JWS), not both.") }
      if let jws, payment.offerID == nil { throw issue(jws.column, "A JWS offer needs an offer: add offer=OFFER-ID.") }
      return .requestSignedBuy(
        payment, offerJWS: jws != nil, allowIntroductoryOffer: intro.map { $0.value == "allow" }, valid: signature == nil)
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
