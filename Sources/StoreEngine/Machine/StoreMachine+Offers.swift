import Foundation

extension StoreMachine {
  /// How long a promotional-offer signature stays valid after its timestamp (Apple: 24 hours).
  static let offerSignatureLifetime: TimeInterval = 86_400

  /// Why the store refuses a payment's offer whoever buys it, if it does: an offer id the product
  /// does not have (B52, `invalidOfferIdentifier`), a promotional offer without a signed
  /// `SKPaymentDiscount` (B51, `missingOfferParams`) or with a signature that does not check out
  /// (`invalidSignature`). Nothing is charged.
  func offerRefusal(for payment: Payment, product: Product?) -> StoreKitError? {
    guard let offerID = payment.offerID ?? payment.discount?.identifier, let product else { return nil }
    guard let info = product.subscription,
      let offer = (info.promotionalOffers + info.codeOffers + info.winBackOffers).first(where: { $0.id == offerID })
    else { return .invalidOfferIdentifier }
    guard offer.kind == .promotional, !payment.offerSignatureWaived else { return nil }
    guard let discount = payment.discount else { return .missingOfferParams }
    guard discount.identifier == offerID, isFresh(discount), let verifier = environment.offerSignatureVerifier else {
      return .invalidSignature
    }
    let message =
      discount.signedMessage
      ?? discount.message(bundleID: environment.bundleID, productID: product.id, applicationUsername: payment.applicationUsername)
    return verifier.isValid(signature: discount.signature, of: message, keyIdentifier: discount.keyIdentifier)
      ? nil : .invalidSignature
  }

  private func isFresh(_ discount: PaymentDiscount) -> Bool {
    let signed = SignedPayloads.date(milliseconds: discount.timestamp)
    return signed <= now.addingTimeInterval(Self.offerSignatureLifetime) && now.timeIntervalSince(signed) <= Self.offerSignatureLifetime
  }
}
