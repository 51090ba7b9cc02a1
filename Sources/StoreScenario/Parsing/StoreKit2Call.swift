import StoreEngine

/// A StoreKit 2 call a scenario line makes as an app would; each prints one line with the result
/// (or the error `fail API` simulates), in both views.
public enum StoreKit2Call: Sendable, Equatable {
  /// `Transaction.currentEntitlements` (`entitlements`).
  case currentEntitlements
  /// `Transaction.unfinished` (`unfinished`).
  case unfinished
  /// `Transaction.latest(for:)` (`latest PRODUCT`).
  case latest(Product.ID)
  /// `AppStore.sync()` (`sync`): a restore for the engine, then the entitlements are read again.
  case sync
  /// `Product.SubscriptionInfo.status` of a subscription group (`subscription-status PRODUCT|GROUP`).
  case subscriptionStatus(group: String)
  /// `AppTransaction.shared` (`app-transaction`).
  case appTransaction
  /// `AppStore.showManageSubscriptions(in:)` (`manage-subscriptions`).
  case manageSubscriptions
}

/// How a `purchase()` call ended, as `expect purchase-result` names it.
public enum PurchaseOutcome: Sendable, Equatable {
  /// `.success`, verified or not (`success`), or only `verified` / `unverified`.
  case success(verification: String?)
  case pending
  case userCancelled
  /// It threw this `StoreKitError` or `Product.PurchaseError` case.
  case threw(String)

  /// Parses `success`, `verified`, `unverified`, `pending`, `userCancelled` or an error name;
  /// after `threw` only an error name (`threw userCancelled` is the thrown `StoreKitError`).
  init?(parsing text: String, thrown: Bool = false) {
    switch thrown ? "" : text {
    case "success": self = .success(verification: nil)
    case "verified", "unverified": self = .success(verification: text)
    case "pending": self = .pending
    case "userCancelled": self = .userCancelled
    default:
      guard let error = StoreKitError(parsing: text), Int(text) == nil else { return nil }
      self = .threw(StoreKit2Error(for: error).name)
    }
  }

  /// Whether `actual` is what this expects (`success` accepts either verification).
  func accepts(_ actual: PurchaseOutcome) -> Bool {
    switch (self, actual) {
    case (.success(nil), .success): true
    default: self == actual
    }
  }

  /// `success verified`, `pending`, `threw networkError`.
  var text: String {
    switch self {
    case .success(let verification): ["success", verification].compactMap { $0 }.joined(separator: " ")
    case .pending: "pending"
    case .userCancelled: "userCancelled"
    case .threw(let name): "threw \(name)"
    }
  }
}
