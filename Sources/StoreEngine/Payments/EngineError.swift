/// Why the store refused a command: data only. Each front end has one place that puts it into its
/// own words (the TUI names keys, the CLI and scenarios name verbs).
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No transaction with this id (or reference, such as `last`) in the account's history.
  case unknownTransaction(String)
  case alreadyFinished(PaymentTransaction.ID)
  case cannotFinishPurchasing(PaymentTransaction.ID)
  /// Confirm or cancel with no sheet showing.
  case noPrompt
  case notDeferred(PaymentTransaction.ID)
  /// Resolve asked of a transaction that is neither an interrupted purchase nor in billing trouble.
  case notInterrupted(PaymentTransaction.ID)
  case wrongPassword(account: String)
  /// The command needs a signed-in sandbox account.
  case notSignedIn
  case cannotRefund(PaymentTransaction.ID, because: RefundRefusal)
  case notSubscription(PaymentTransaction.ID)
  /// The purchase sheet of this transaction is showing; answer it before switching accounts.
  case sheetIsShowing(PaymentTransaction.ID)
  case passwordHashing(account: String, reason: String)
  case ledger(LedgerError)
  case signing(transaction: PaymentTransaction.ID, reason: String)
  /// The machine used up the transaction ids it was given after drawing `drawn` in this step.
  /// The shell (``PaymentQueue``) reserves more in the ledger and runs the command again; a front
  /// end never sees it.
  case transactionIDsExhausted(drawn: Int)
  /// B63: a storefront code that is no App Store storefront, with the codes one edit away.
  case unknownStorefront(String, nearMatches: [String])
  /// The subscription's renewal date cannot be extended (App Store Server API).
  case cannotExtend(PaymentTransaction.ID, because: ExtensionRefusal)
  /// A product id the catalog does not have as an auto-renewable subscription (a mass extension's).
  case notSubscriptionProduct(String)
  /// The purchase sheet of this transaction was answered here, but another process had taken the
  /// purchase over meanwhile (this one's session looked dead: a client cut off from a shared
  /// ledger): `owner` holds it now, nil when it was already answered there. Nothing was written or
  /// announced; the sheet is closed and the row shows the purchase as the ledger has it.
  case purchaseTakenOver(PaymentTransaction.ID, owner: String?)
  /// N7: a price increase asked or answered for a subscription that has ended (expired or
  /// refunded); price-increase consent concerns active subscribers.
  case subscriptionEnded(PaymentTransaction.ID)
  /// B50: the code typed into the redemption sheet is no offer code of the catalog's subscriptions.
  case unknownOfferCode(String)
  /// B87–B89: an offer code the store knows but does not redeem now (used, used up, expired, or
  /// this customer's second of the offer); nothing is charged.
  case offerCodeRefused(String, because: OfferCodeRefusal)
  /// Codes that cannot be generated or created as asked (the reason says what to change).
  case cannotMakeOfferCodes(String)

  /// Why a renewal-date extension was refused (Apple's 403 errors).
  public enum ExtensionRefusal: String, Sendable, Equatable {
    /// Not active: expired, revoked, in billing retry or grace (`SubscriptionExtensionIneligibleError`).
    case notActive
    /// Two extensions within 365 days already (`SubscriptionMaxExtensionError`).
    case tooManyExtensions
    /// A family member's copy (`FamilySharedSubscriptionExtensionIneligibleError`).
    case familyShared
  }

  /// Why a refund was refused.
  public enum RefundRefusal: Sendable, Equatable {
    case notPurchased(TransactionState)
    case alreadyRefunded
  }

  /// A plain sentence naming what went wrong, for logs; front ends word it themselves.
  public var description: String {
    switch self {
    case .unknownTransaction(let id): "No transaction '\(id)' in this account's history."
    case .alreadyFinished(let id): "Transaction \(id) is already finished; finishing it again does nothing."
    case .cannotFinishPurchasing(let id):
      "Transaction \(id) is still purchasing and cannot be finished; wait for purchased, failed or restored."
    case .noPrompt: "No purchase or sign-in sheet is showing; there is nothing to confirm or cancel."
    case .notDeferred(let id): "Transaction \(id) is not waiting for Ask to Buy approval."
    case .notInterrupted(let id): "Transaction \(id) is not an interrupted purchase; there is nothing to resolve."
    case .wrongPassword(let account): "Wrong password for sandbox account '\(account)'."
    case .notSignedIn: "No sandbox account is signed in."
    case .cannotRefund(let id, let why): "Transaction \(id) cannot be refunded: \(why.reason)."
    case .notSubscription(let id): "Transaction \(id) is not an auto-renewable subscription."
    case .sheetIsShowing(let id):
      "The purchase sheet of transaction \(id) is showing; confirm or cancel it before switching accounts."
    case .passwordHashing(let account, let reason): "Could not store the password of '\(account)': \(reason)."
    case .ledger(let error): error.description
    case .signing(let id, let reason): "Could not sign transaction \(id): \(reason)."
    case .transactionIDsExhausted(let drawn): "The store ran out of reserved transaction ids after \(drawn)."
    case .unknownStorefront(let code, let near):
      "'\(code)' is not an App Store storefront\(near.isEmpty ? "" : " (near: \(near.joined(separator: ", ")))"); use an ISO 3166-1 alpha-3 code such as USA, KOR or JPN."
    case .cannotExtend(let id, let why): "The renewal date of subscription \(id) cannot be extended: \(why.rawValue)."
    case .notSubscriptionProduct(let id): "The catalog has no auto-renewable subscription '\(id)'."
    case .purchaseTakenOver(let id, let owner):
      if let owner {
        "The purchase of transaction \(id) was taken over on another device (session \(owner)); nothing was charged here."
      } else {
        "The purchase of transaction \(id) was completed on another device; nothing was charged here."
      }
    case .subscriptionEnded(let id):
      "The subscription of transaction \(id) has ended (expired or refunded); a price increase concerns active subscribers only."
    case .unknownOfferCode(let code): "'\(code)' is not an offer code of any subscription in the catalog; the redemption sheet says it is not valid."
    case .offerCodeRefused(let code, let why):
      "Offer code \(code) \(why.reason); nothing was charged. List the codes with `storefront offer-codes list`."
    case .cannotMakeOfferCodes(let reason): "Cannot make the offer codes: \(reason)."
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
    case .sheetIsShowing: "sheetIsShowing"
    case .passwordHashing: "passwordHashing"
    case .ledger: "ledger"
    case .signing: "signing"
    case .transactionIDsExhausted: "transactionIDsExhausted"
    case .unknownStorefront: "unknownStorefront"
    case .cannotExtend: "cannotExtend"
    case .notSubscriptionProduct: "notSubscriptionProduct"
    case .purchaseTakenOver: "purchaseTakenOver"
    case .subscriptionEnded: "subscriptionEnded"
    case .unknownOfferCode: "unknownOfferCode"
    // B88: the refusal's own name, so `expect misuse offerCodeExpired` tells them apart.
    case .offerCodeRefused(_, let why): "offerCode" + why.name.prefix(1).uppercased() + why.name.dropFirst()
    case .cannotMakeOfferCodes: "cannotMakeOfferCodes"
    }
  }
}

extension EngineError.RefundRefusal {
  /// The reason as a clause: "it is failed, not purchased".
  public var reason: String {
    switch self {
    case .notPurchased(let state): "it is \(state.name), not purchased"
    case .alreadyRefunded: "it was already refunded"
    }
  }
}
