import Foundation
import SimulatedApp
import StoreEngine

/// Which transaction a scenario line means: a number, `last`, or the newest one of a product.
public enum TransactionReference: Sendable, Equatable {
  case id(PaymentTransaction.ID)
  case last
  case product(Product.ID)
}

/// One parsed, validated scenario line.
public struct ScenarioStep: Sendable, Equatable {
  /// The 1-based line of the file: the `line` of the events the step causes.
  public var line: Int
  /// What the line does.
  public var action: Action

  /// What a line does: a store command (possibly naming a transaction by reference), or a check.
  public enum Action: Sendable, Equatable {
    /// A store command that names no transaction.
    case command(StoreCommand)
    /// A store command about the transaction `reference` means when the line runs.
    case transaction(TransactionReference, TransactionVerb)
    /// A purchase started on the App Store page, with the app's answer to `shouldAddStorePayment`.
    case storePayment(Product.ID, answer: StorePaymentAnswer)
    /// The app adds the App Store payment it kept (`store-payment … answer=later`) to the queue.
    case addStorePayment(Product.ID)
    /// `redeem …`: a code typed into the App Store's redemption sheet (B50, B88).
    case redeem(TypedCode)
    /// `finish all`: every finishable unfinished transaction, one step each.
    case finishAll
    /// `buy … offer=… signed` (or `signature=bad`): the runner signs the promotional offer with the
    /// storefront's key when the line runs (B51); `valid` false signs something else.
    case signedBuy(Payment, valid: Bool)
    /// `buy … offer=… jws` and/or `intro=allow|withhold` (with `signature=bad` for a forged one): the
    /// runner signs a compact-JWS promotional offer and/or introductory-offer eligibility as the
    /// developer's server does with Apple's library, with the storefront's in-app purchase key (B74, B75).
    case requestSignedBuy(Payment, offerJWS: Bool, allowIntroductoryOffer: Bool?, valid: Bool)
    /// `rescind-consent [ACCOUNT]`: a parent withdraws consent for the account's (default: the
    /// signed-in one's) use of the app; its server gets RESCIND_CONSENT.
    case rescindConsent(account: String?)
    /// Move the clock forward by a duration (a month is a calendar month from now).
    case advance(ScenarioDuration)
    /// Change a sandbox control.
    case set(Control)
    case expect(Expectation)
    /// A StoreKit 2 call the app makes (entitlements, status, app transaction, …).
    case storeKit2(StoreKit2Call)
    /// A fault `storefront serve` injects into its answers (sandbox controls for the app's server).
    case serverFault(ServerFault)
    /// `notifications url`: the app's server's notification URL for an environment (nil: the
    /// run's signing environment); a nil URL removes it.
    case notificationURL(String?, environment: String?)
    /// `app finishes manually|at-once|after-server URL`: when the simulated app finishes transactions.
    case appFinishes(AppFinishMode)
    /// `cancel-flow PRODUCT [choose=dismiss|accept|cancel]`: the customer opens the subscription's
    /// page and moves to cancel; the storefront asks the developer's realtime endpoint what to show.
    case cancelFlow(Product.ID, choice: RetentionChoice)
  }

  /// A command about one transaction, before its reference is resolved.
  public enum TransactionVerb: Sendable, Equatable {
    case finish
    case approve(after: ScenarioDuration?)
    case decline(after: ScenarioDuration?)
    case resolve
    case refund(reason: Int)
    case requestRefund(answer: RefundRequestAnswer, reason: Int)
    case autoRenew(Bool)
    case expire
    case renew
    case resolveBilling
    /// `price-increase … request [price=…]`, `accept`, `decline`.
    case priceIncrease(StoreCommand.PriceIncreaseAction, price: Decimal? = nil)
    /// `SKTestSession.deleteTransaction(identifier:)`.
    case delete

    /// The store command for transaction `id`, with durations measured from `now`.
    public func command(for id: PaymentTransaction.ID, now: Date) -> StoreCommand {
      switch self {
      case .finish: .finish(id)
      case .approve(let after): .approve(id, after: after.map { $0.after(now).timeIntervalSince(now) })
      case .decline(let after): .decline(id, after: after.map { $0.after(now).timeIntervalSince(now) })
      case .resolve: .resolve(id)
      case .refund(let reason): .refund(id, reason: reason)
      case .requestRefund(let answer, let reason): .requestRefund(id, answer: answer, reason: reason)
      case .autoRenew(let on): .setAutoRenew(id, on)
      case .expire: .expireSubscription(id)
      case .renew: .renewSubscription(id)
      case .resolveBilling: .resolveBillingIssue(id)
      case .priceIncrease(let action, let price): .priceIncrease(id, action, price: price)
      case .delete: .deleteTransaction(id)
      }
    }
  }

  /// A sandbox control or environment setting (`set …`, `fail …` and their shortcuts).
  public enum Control: Sendable, Equatable {
    case askToBuy(Bool)
    case interrupted(Bool)
    case canMakePayments(Bool)
    case dialogs(Bool)
    case billingIssue(Bool)
    case grace(Bool)
    case storefront(String)
    case locale(String)
    case latency(ScenarioDuration)
    case timeRate(TimeRate)
    case failure(StoreAPI, SimulatedFailure?)
    /// `set age-rating CODE|none`: what `AppStore.ageRatingCode` answers.
    case ageRating(Int?)
    /// `glitch NAME on|off|next [N]|1-in N [seed S]`: one of the real store's glitches (DECISIONS §46).
    case glitch(StoreGlitch, GlitchSetting)

    /// The store's control change (durations are fixed lengths here: a month is 30 days).
    public var change: ControlChange {
      switch self {
      case .askToBuy(let on): .askToBuy(on)
      case .interrupted(let on): .interruptedPurchases(on)
      case .canMakePayments(let on): .canMakePayments(on)
      case .dialogs(let on): .dialogs(on)
      case .billingIssue(let on): .billingRetry(on)
      case .grace(let on): .gracePeriod(on)
      case .storefront(let code): .storefront(code)
      case .locale(let locale): .locale(locale)
      case .latency(let duration): .productsLatency(duration.after(Date(timeIntervalSince1970: 0)).timeIntervalSince1970)
      case .timeRate(let rate): .timeRate(rate.rawValue)
      case .failure(let api, let failure): .failure(api, failure)
      case .ageRating(let code): .ageRatingCode(code)
      case .glitch(let glitch, let setting): .glitch(glitch, setting)
      }
    }
  }

  /// Assertions, so scenario files double as tests.
  public enum Expectation: Sendable, Equatable {
    case state(TransactionReference, TransactionState)
    case error(TransactionReference, StoreKitError?)
    case owned(Product.ID, Bool)
    case quantity(Product.ID, Int)
    case unfinished(Int)
    case transactions(Int)
    case prompt(String)
    case account(String?)
    case status(Product.ID, SubscriptionStatus)
    case expires(TransactionReference, Date)
    /// `expect commitment REF N/TOTAL` (or `none`): the transaction is payment N of a TOTAL-payment
    /// commitment (a monthly plan's `commitmentInfo`), or belongs to none.
    case commitment(TransactionReference, period: Int?, total: Int?)
    /// `expect price REF AMOUNT`: what the transaction charged, in its currency.
    case price(TransactionReference, Decimal)
    /// The transaction is a component of `bundle`'s newest transaction (its `bundle…` values, in
    /// the engine and the signed payload), or, with nil, carries none (§47).
    case bundle(TransactionReference, Product.ID?)
    /// The transaction's `previousOriginalTransactionId` is the original id of one of `product`'s
    /// own chains (not a bundle's component), or, with nil, is absent (§47).
    case previous(TransactionReference, Product.ID?)
    /// The newest transaction of `product` that is not a bundle's component was revoked with this
    /// reason (`other`, `developerIssue`, `upgradedToBundle`), or, with nil, is not revoked.
    case revocation(Product.ID, String?)
    /// The transaction carries a JWS that verifies (with the runner's verifier, else: is present).
    case signed(TransactionReference)
    /// The transaction carries a JWS that does not verify: StoreKit 2's `.unverified`.
    case unverified(TransactionReference)
    /// The line before crashed the app (the run then goes on after a relaunch).
    case crash
    case restored(Int)
    case lastEvent(String)
    case misuse(String)
    /// `expect age-rating CODE|none`: what `AppStore.ageRatingCode` answers now (nil: unavailable).
    case ageRating(Int?)
    /// The last cancel sheet was of this kind (`plain`, `message`, `alternate`, `offer`), with
    /// this message or product (a message identifier, an alternate product or an offer id) when given.
    case retentionSheet(String, String?)
    /// `Transaction.currentEntitlements` has (or has not) a transaction for the product.
    case entitlement(Product.ID, Bool)
    /// `Transaction.unfinished` has this many transactions.
    case storeKit2Unfinished(Int)
    /// The last `purchase()` call (of a product, or any) ended so: a ``PurchaseOutcome``.
    case purchaseResult(Product.ID?, PurchaseOutcome)
    /// `Transaction.updates` has emitted this many transactions so far.
    case updates(Int)
    /// A notification like this was queued after the one the previous `expect notification` matched.
    case notification(NotificationMatch)
    /// The run has queued this many notifications.
    case notifications(Int)
    /// Every notification like this the run queued so far is delivered (by a serving process) within
    /// the wait, in real time.
    case delivered(NotificationMatch, within: Duration)
    /// The store holds this many offer codes (B87).
    case offerCodes(Int)
    /// An offer code (or `last-code`) was redeemed this many times (B88).
    case redemptions(String, Int)
    /// The transaction applied an offer of this kind and payment mode (nil: none) (B89).
    case offer(TransactionReference, kind: String?, mode: String?)
  }

  /// The code a `redeem` line types.
  public enum TypedCode: Sendable, Equatable {
    case typed(String)
    /// The first one-time code nobody redeemed yet.
    case nextOneTime
    /// The code the previous `redeem` typed.
    case last
  }
}
