import StoreEngine

extension EventRecord {
  /// `refundRequest`: what the app's refund sheet (`Transaction.beginRefundRequest`) returned:
  /// `result` is `success` or `userCancelled`, or `failed` with the `error` it threw. (B10)
  struct RefundRequest: Sendable, Equatable, Codable {
    var transactionID: String
    var result: String
    var error: RefundError?

    enum CodingKeys: String, CodingKey {
      case transactionID = "transactionId"
      case result, error
    }

    init(_ id: PaymentTransaction.ID, _ outcome: RefundRequestResult) {
      transactionID = id.description
      switch outcome {
      case .success: result = "success"
      case .userCancelled: result = "userCancelled"
      case .failed(let failure):
        result = "failed"
        error = RefundError(failure)
      }
    }
  }

  /// What `beginRefundRequest` threw. StoreKit 2 only (N8): a `Transaction.RefundRequestError` by
  /// its code, domain and name, as before; any other error as the `StoreKitError` case a StoreKit 2
  /// app catches (`{type StoreKitError, name networkError}`), never an `SKError`.
  struct RefundError: Sendable, Equatable, Codable {
    var code: Int?
    var domain: String?
    var type: String?
    var name: String

    init(_ error: StoreKitError) {
      if error.domain == StoreKitError.refundRequestErrorDomain {
        code = error.code
        domain = error.domain
        name = error.name
      } else {
        let modern = StoreKit2Error(for: error)
        type = modern.kind.rawValue
        name = modern.name
      }
    }

    /// As Swift prints the dictionary, keys in order.
    var text: String {
      if let code, let domain {
        return "[\"code\": \(code), \"domain\": \(domain.debugDescription), \"name\": \(name.debugDescription)]"
      }
      return "[\"name\": \(name.debugDescription), \"type\": \((type ?? "").debugDescription)]"
    }
  }
}
