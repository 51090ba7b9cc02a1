/// What `Transaction.beginRefundRequest` returned to the app.
public enum RefundRequestResult: Sendable, Equatable {
  /// `Transaction.RefundRequestStatus.success`: the request was submitted (not that it was granted).
  case success
  /// `Transaction.RefundRequestStatus.userCancelled`.
  case userCancelled
  /// The sheet threw: a `Transaction.RefundRequestError` (`duplicateRequest`, `failed`) or a
  /// `StoreKitError`, as `fail refund ERROR` simulates.
  case failed(StoreKitError)

  /// The name an app would log: `success`, `userCancelled`, or the error's case name.
  public var name: String {
    switch self {
    case .success: "success"
    case .userCancelled: "userCancelled"
    case .failed(let error): error.name
    }
  }
}
