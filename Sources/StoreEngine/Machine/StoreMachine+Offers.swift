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
    if let request = discount.request {
      guard request.offerIdentifier == offerID else { return .invalidOfferIdentifier }
      return refusal(of: request, as: .promotionalOffer, product: product)
    }
    guard discount.identifier == offerID, isFresh(discount), let verifier = environment.offerSignatureVerifier else {
      return .invalidSignature
    }
    let message =
      discount.signedMessage
      ?? discount.message(bundleID: environment.bundleID, productID: product.id, applicationUsername: payment.applicationUsername)
    return verifier.isValid(signature: discount.signature, of: message, keyIdentifier: discount.keyIdentifier)
      ? nil : .invalidSignature
  }

  /// Why the store refuses a payment's signed introductory-offer eligibility, if it does.
  func eligibilityRefusal(for payment: Payment, product: Product?) -> StoreKitError? {
    guard let request = payment.introductoryOfferEligibility, let product else { return nil }
    return refusal(of: request, as: .introductoryOfferEligibility, product: product)
  }

  /// Why the store refuses a request the developer's server signed (``SignedRequest``), if it
  /// does: a signature the key its `kid` names did not make, another audience, app or product, a
  /// transaction that is not the customer's, or a request older than a day (`invalidSignature`);
  /// an eligibility request without its answer or transaction (`missingOfferParams`).
  func refusal(of request: SignedRequest, as audience: SignedRequest.Audience, product: Product) -> StoreKitError? {
    guard let verifier = environment.offerSignatureVerifier,
      verifier.isValid(signature: request.signature, of: request.signingInput, keyIdentifier: request.keyIdentifier)
    else { return .invalidSignature }
    if audience == .introductoryOfferEligibility, request.allowIntroductoryOffer == nil || request.transactionID == nil {
      return .missingOfferParams
    }
    guard request.audience == audience.rawValue, request.bundleID == environment.bundleID, request.productID == product.id.rawValue,
      request.nonce != nil, let issued = request.issuedAt,
      issued <= now.addingTimeInterval(SignedRequest.lifetime), now.timeIntervalSince(issued) <= SignedRequest.lifetime
    else { return .invalidSignature }
    if let id = request.transactionID, !isCustomers(id) { return .invalidSignature }
    return nil
  }

  /// Whether `id` names the signed-in customer: their app transaction id, or one of their transactions.
  private func isCustomers(_ id: String) -> Bool {
    guard let account = currentAccount else { return false }
    if id == SignedPayloads.appTransactionID(account: account, bundleID: environment.bundleID) { return true }
    return PaymentTransaction.ID(id).flatMap { transactions[$0] }?.account == account
  }

  private func isFresh(_ discount: PaymentDiscount) -> Bool {
    let signed = SignedPayloads.date(milliseconds: discount.timestamp)
    return signed <= now.addingTimeInterval(Self.offerSignatureLifetime) && now.timeIntervalSince(signed) <= Self.offerSignatureLifetime
  }
}
