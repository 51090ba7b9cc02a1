extension EventRecord {
  /// `appCrashed`: a call a real app dies of (B27), with the exception StoreKit raises.
  struct AppCrashed: Sendable, Equatable, Codable {
    var exception: String
    var reason: String
    var transactionID: String
    var message: String

    enum CodingKeys: String, CodingKey {
      case transactionID = "transactionId"
      case exception, reason, message
    }

    init(_ crash: AppCrash) {
      exception = crash.exception
      reason = crash.reason
      transactionID = crash.transactionID.description
      message = crash.description
    }
  }
}
