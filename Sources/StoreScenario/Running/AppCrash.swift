import StoreEngine

/// Misuse that StoreKit answers with an uncaught exception, so a real app dies of it where the
/// simulator could carry on: the runner stops (or, before `expect crash`, relaunches) and the TUI
/// shows it as an error notice, both in these words.
public struct AppCrash: Sendable, Equatable, CustomStringConvertible {
  /// The Objective-C exception StoreKit raises.
  public var exception: String
  /// The exception's reason, as the crash log shows it.
  public var reason: String
  /// The transaction the call was about.
  public var transactionID: PaymentTransaction.ID

  /// The crash `error` stands for, or nil when StoreKit only ignores or reports that misuse.
  public init?(_ error: EngineError) {
    switch error {
    case .cannotFinishPurchasing(let id):
      // B27: "Cannot finish a purchasing transaction" (developer.apple.com/forums/thread/64687).
      exception = "NSInternalInconsistencyException"
      reason = "Cannot finish a purchasing transaction"
      transactionID = id
    default:
      return nil
    }
  }

  /// One sentence: what the app called and what it would have died of.
  public var description: String {
    "The app would have crashed: finishTransaction on transaction \(transactionID), still purchasing, raises \(exception) ('\(reason)')."
  }
}
