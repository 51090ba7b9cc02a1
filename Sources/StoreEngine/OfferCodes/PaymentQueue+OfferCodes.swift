import Foundation

extension PaymentQueue {
  /// B50, B88: types `code` (or a redemption URL) into the App Store's redemption sheet; returns the
  /// purchase it starts.
  ///
  /// - Throws: ``EngineError/offerCodeRefused(_:because:)`` or ``EngineError/unknownOfferCode(_:)``
  ///   (nothing charged, no transaction).
  @discardableResult
  public func redeemOfferCode(_ code: String) throws(EngineError) -> PaymentTransaction.ID {
    guard let id = try perform(.redeemOfferCode(code)).createdTransaction else { throw .unknownOfferCode(code) }
    return id
  }

  /// The product a typed code (or redemption URL) would redeem, if the store knows it.
  public func productRedeemed(byCode text: String) -> Product.ID? {
    let typed = OfferCode.typed(text)
    if let code = OfferCodeBook.code(typed, in: deviceValues) { return code.productID }
    let lowered = typed.lowercased()
    return catalog.products.first { product in
      product.subscription?.codeOffers.contains {
        $0.id.lowercased() == lowered || (!$0.referenceName.isEmpty && $0.referenceName.lowercased() == lowered)
      } == true
    }?.id
  }
}
