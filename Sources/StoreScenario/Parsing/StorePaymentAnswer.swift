/// How the app answers `paymentQueue(_:shouldAddStorePayment:for:)` for a purchase started on the
/// App Store page (`store-payment ID answer=…`).
public enum StorePaymentAnswer: String, Sendable, Equatable, CaseIterable {
  /// `true`: the payment joins the queue at once.
  case add
  /// `false`, keeping the payment to add it later (`add-store-payment ID`), as Apple suggests for an
  /// app that must first show onboarding or sign the user in. (B55)
  case later
  /// `false`, dropping the payment: nothing is bought.
  case cancel
}
