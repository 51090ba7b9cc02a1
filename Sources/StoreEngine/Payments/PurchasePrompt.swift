/// What the App Store shows the user while a payment waits: the purchase sheet or a sign-in sheet.
public enum PurchasePrompt: Sendable, Equatable {
  /// "Confirm Your In-App Purchase"; `alreadyOwned` is the "get it again for free" variant.
  /// `price` is what confirming will charge (an offer's price, zero for a re-download); `terms`, for
  /// an auto-renewable subscription, what it renews at and the offer it starts with (B73).
  case confirm(
    transaction: PaymentTransaction.ID, product: Product.ID, quantity: Int, alreadyOwned: Bool, price: Money,
    terms: SubscriptionTerms<Money>? = nil)
  /// The sandbox tester must sign in before the payment (or restore) can go on.
  case signIn(purpose: SignInPurpose)

  public enum SignInPurpose: Sendable, Equatable {
    case purchase(PaymentTransaction.ID)
    case restore
  }
}

extension PurchasePrompt {
  /// The transaction the sheet is for; nil for a restore's sign-in.
  public var transactionID: PaymentTransaction.ID? {
    switch self {
    case .confirm(let id, _, _, _, _, _), .signIn(.purchase(let id)): id
    case .signIn(.restore): nil
    }
  }
}
