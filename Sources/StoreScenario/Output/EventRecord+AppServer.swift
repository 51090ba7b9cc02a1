import Foundation
import SimulatedApp

extension EventRecord {
  /// `appServerCall`: the simulated app asked its own server about a purchase, and how it answered.
  struct AppServerCall: Sendable, Equatable, Codable {
    var url: String
    var transactionID: String
    var productID: String
    /// The server's HTTP status; nil when it did not answer.
    var status: Int?
    var latencyMilliseconds: Int
    var error: String?
    /// Whether the app finishes the transaction (a 2xx answer).
    var finishes: Bool

    enum CodingKeys: String, CodingKey {
      case url, status, error, finishes
      case transactionID = "transactionId"
      case productID = "productId"
      case latencyMilliseconds = "latencyMs"
    }

    init(_ answer: AppServerAnswer) {
      url = answer.request.url
      transactionID = answer.request.transactionID
      productID = answer.request.productID
      status = answer.status
      latencyMilliseconds = answer.milliseconds
      error = answer.error
      finishes = answer.accepted
    }
  }
}
