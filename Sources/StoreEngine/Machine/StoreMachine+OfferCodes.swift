import Foundation

extension StoreMachine {
  /// B50: an offer code redeemed in the App Store's sheet (`presentCodeRedemptionSheet()`): the
  /// store pays for the code's subscription with the code's offer, through the usual sheet (its
  /// terms state the offer, B73) and eligibility rules. A code names its offer by id or by
  /// reference name, case-insensitively, as a customer types it.
  mutating func redeem(_ code: String) throws(EngineError) -> PaymentTransaction.ID {
    let typed = code.lowercased()
    for product in catalog.products {
      guard let offer = product.subscription?.codeOffers.first(where: {
        $0.id.lowercased() == typed || (!$0.referenceName.isEmpty && $0.referenceName.lowercased() == typed)
      }) else { continue }
      return try add(Payment(productID: product.id, offerID: offer.id))
    }
    throw .unknownOfferCode(code)
  }
}
