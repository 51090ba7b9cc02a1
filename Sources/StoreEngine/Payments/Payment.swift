/// A request to buy a product, as an app adds it to the queue (`SKPayment`).
public struct Payment: Sendable, Equatable {
  public var productID: Product.ID
  public var quantity: Int
  /// `SKPayment.applicationUsername`; a UUID here becomes the JWS `appAccountToken`.
  public var applicationUsername: String?
  /// A promotional offer (`adHocOffers` `offerID`) or offer code to apply.
  public var offerID: String?

  public init(productID: Product.ID, quantity: Int = 1, applicationUsername: String? = nil, offerID: String? = nil) {
    self.productID = productID
    self.quantity = quantity
    self.applicationUsername = applicationUsername
    self.offerID = offerID
  }
}

/// What the App Store shows the user while a payment waits: the purchase sheet or a sign-in sheet.
public enum PurchasePrompt: Sendable, Equatable {
  /// "Confirm Your In-App Purchase"; `alreadyOwned` is the "get it again for free" variant.
  case confirm(transaction: PaymentTransaction.ID, product: Product.ID, quantity: Int, alreadyOwned: Bool)
  /// The sandbox tester must sign in before the payment (or restore) can go on.
  case signIn(purpose: SignInPurpose)

  public enum SignInPurpose: Sendable, Equatable {
    case purchase(PaymentTransaction.ID)
    case restore
  }
}

/// Misuse of the engine's API: reported clearly, never a crash.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
  case unknownTransaction(String)
  case alreadyFinished(PaymentTransaction.ID)
  case cannotFinishPurchasing(PaymentTransaction.ID)
  case noPrompt
  case notDeferred(PaymentTransaction.ID)
  case notInterrupted(PaymentTransaction.ID)
  case wrongPassword(account: String)
  case notSignedIn
  case cannotRefund(PaymentTransaction.ID, reason: String)
  case notSubscription(PaymentTransaction.ID)
  case passwordHashing(account: String, reason: String)
  case ledger(LedgerError)
  case signing(transaction: PaymentTransaction.ID, reason: String)

  public var description: String {
    switch self {
    case .unknownTransaction(let id):
      "No transaction '\(id)' in this account's history. List them with `storefront transactions`."
    case .alreadyFinished(let id): "Transaction \(id) is already finished; finishing it again does nothing."
    case .cannotFinishPurchasing(let id):
      "Transaction \(id) is still purchasing and cannot be finished; wait for purchased, failed or restored."
    case .noPrompt: "No purchase or sign-in sheet is showing; there is nothing to confirm or cancel."
    case .notDeferred(let id): "Transaction \(id) is not waiting for Ask to Buy approval."
    case .notInterrupted(let id): "Transaction \(id) is not an interrupted purchase; there is nothing to resolve."
    case .wrongPassword(let account): "Wrong password for sandbox account '\(account)'."
    case .notSignedIn: "No sandbox account is signed in. Sign in with `account NAME`."
    case .cannotRefund(let id, let reason): "Transaction \(id) cannot be refunded: \(reason)."
    case .notSubscription(let id): "Transaction \(id) is not an auto-renewable subscription."
    case .passwordHashing(let account, let reason): "Could not store the password of '\(account)': \(reason)."
    case .ledger(let error): error.description
    case .signing(let id, let reason): "Could not sign transaction \(id): \(reason)."
    }
  }

  /// A short case name for JSON events and assertions.
  public var name: String {
    switch self {
    case .unknownTransaction: "unknownTransaction"
    case .alreadyFinished: "alreadyFinished"
    case .cannotFinishPurchasing: "cannotFinishPurchasing"
    case .noPrompt: "noPrompt"
    case .notDeferred: "notDeferred"
    case .notInterrupted: "notInterrupted"
    case .wrongPassword: "wrongPassword"
    case .notSignedIn: "notSignedIn"
    case .cannotRefund: "cannotRefund"
    case .notSubscription: "notSubscription"
    case .passwordHashing: "passwordHashing"
    case .ledger: "ledger"
    case .signing: "signing"
    }
  }
}
