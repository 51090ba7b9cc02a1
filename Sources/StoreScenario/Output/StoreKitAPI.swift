/// Which StoreKit an app is written against: the view `storefront run --api` prints and the Log
/// pane toggles between. Both are made from the same engine events.
public enum StoreKitAPI: String, Sendable, Equatable, CaseIterable {
  /// `SKPaymentQueue` observer callbacks (`transactionUpdated` with its states, `restoreFinished`).
  case storeKit1 = "storekit1"
  /// `purchase()` results, `Transaction.updates`, `AppStore.sync()` and the other StoreKit 2 APIs.
  case storeKit2 = "storekit2"

  /// "StoreKit 1", "StoreKit 2".
  public var title: String {
    switch self {
    case .storeKit1: "StoreKit 1"
    case .storeKit2: "StoreKit 2"
    }
  }
}
