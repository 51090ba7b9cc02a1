import Foundation

/// Which transaction a scenario line means: a number, `last`, or the newest one of a product.
public enum TransactionReference: Sendable, Equatable {
  case id(PaymentTransaction.ID)
  case last
  case product(Product.ID)
}

/// One parsed, validated scenario line.
public struct ScenarioStep: Sendable, Equatable {
  public var line: Int
  public var action: Action

  public enum Action: Sendable, Equatable {
    case account(String, password: String?)
    case signOut
    case request([String])
    case buy(Payment)
    case storePayment(Product.ID)
    case confirm
    case cancel
    case finish(TransactionReference)
    case finishAll
    case restore
    case approve(TransactionReference, after: ScenarioDuration?)
    case decline(TransactionReference, after: ScenarioDuration?)
    case resolve(TransactionReference)
    case refund(TransactionReference, reason: Int)
    case set(Control)
    case fail(StoreAPI, SimulatedFailure?)
    case advance(ScenarioDuration)
    case relaunch
    case clearHistory(String?)
    case autoRenew(TransactionReference, Bool)
    case expire(TransactionReference)
    case renew(TransactionReference)
    case resolveBilling(TransactionReference)
    case priceIncrease(TransactionReference, PriceIncreaseStep)
    case expect(Expectation)
  }

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
  }

  public enum PriceIncreaseStep: String, Sendable, Equatable {
    case request
    case accept
    case decline
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
    case signed(TransactionReference)
    case restored(Int)
    case lastEvent(String)
    case misuse(String)
  }
}
