import Foundation

/// Signs promotional offers as a developer's server does (``PaymentDiscount``), with a key the
/// storefront issued; used by front ends that make signed payments (`buy … offer=… signed`).
public protocol PromotionalOfferSigner: Sendable {
  /// The key's id, as App Store Connect shows it; goes into ``PaymentDiscount/keyIdentifier``.
  var keyIdentifier: String { get }
  /// Base64 of the DER ECDSA P-256 / SHA-256 signature of `message`.
  func signature(of message: Data) throws -> String
}

extension PromotionalOfferSigner {
  /// A discount for `payment`'s offer, signed at `date` with `nonce`.
  public func discount(for payment: Payment, bundleID: String, nonce: UUID, at date: Date) throws -> PaymentDiscount {
    let offerID = payment.offerID ?? ""
    let timestamp = SignedPayloads.milliseconds(date)
    let message = PaymentDiscount.message(
      bundleID: bundleID, keyIdentifier: keyIdentifier, productID: payment.productID, offerID: offerID,
      applicationUsername: payment.applicationUsername, nonce: nonce, timestamp: timestamp)
    return PaymentDiscount(
      identifier: offerID, keyIdentifier: keyIdentifier, nonce: nonce, signature: try signature(of: message),
      timestamp: timestamp)
  }
}
