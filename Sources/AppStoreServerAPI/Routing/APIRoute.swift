import Foundation

/// Where a method and path lead: an endpoint and its path parameters (most have one; the status of a
/// mass extension has two), a known path asked with the wrong method, or nothing.
enum APIRoute: Equatable {
  case endpoint(APIEndpoint, parameters: [String])
  case methodNotAllowed
  case notFound

  /// Literal segments win over parameters (`/transactions/consumption/…` before `/transactions/{id}`).
  /// Parameters are percent-decoded; an empty one (`/inApps/v1/transactions/`) still routes, so the
  /// endpoint can answer Apple's invalid-id error for it.
  init(method: String, path: String) {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard segments.count >= 4, segments[0].isEmpty, segments[1] == "inApps" else {
      self = .notFound
      return
    }
    let version = segments[2]
    let rest = Array(segments[3...])
    if version == "v1", rest.first == "messaging" {
      self = Self.messaging(method: method, rest: Array(rest.dropFirst()))
      return
    }
    guard let (endpoint, expected, parameters) = Self.match(version: version, rest: rest) else {
      self = .notFound
      return
    }
    guard method == expected else {
      self = .methodNotAllowed
      return
    }
    self = .endpoint(endpoint, parameters: parameters.map { $0.removingPercentEncoding ?? $0 })
  }

  private static func match(version: String, rest: [String]) -> (APIEndpoint, method: String, parameters: [String])? {
    switch (version, rest.count, rest.first ?? "") {
    case ("v1", 3, "transactions") where rest[1] == "appTransactions":
      (.getAppTransactionInfo, "GET", [rest[2]])
    case ("v2", 3, "transactions") where rest[1] == "consumption":
      (.sendConsumptionInformation, "PUT", [rest[2]])
    case ("v1", 2, "transactions"):
      (.getTransactionInfo, "GET", [rest[1]])
    case ("v2", 2, "history"):
      (.getTransactionHistory, "GET", [rest[1]])
    case ("v1", 2, "history"):
      (.getTransactionHistoryV1, "GET", [rest[1]])
    case ("v1", 2, "subscriptions") where rest[1] != "extend":
      (.getAllSubscriptionStatuses, "GET", [rest[1]])
    case ("v1", 3, "subscriptions") where rest[1] == "extend" && rest[2] == "mass":
      (.massExtendRenewalDate, "POST", [])
    case ("v1", 5, "subscriptions") where rest[1] == "extend" && rest[2] == "mass":
      (.getMassExtensionStatus, "GET", [rest[3], rest[4]])
    case ("v1", 3, "transactions") where rest[1] == "consumption":
      (.sendConsumptionInformationV1, "PUT", [rest[2]])
    case ("v1", 3, "transactions") where rest[2] == "finish":
      (.finishTransaction, "POST", [rest[1]])
    case ("v1", 3, "refund") where rest[1] == "lookup":
      (.getRefundHistoryV1, "GET", [rest[2]])
    case ("v1", 3, "transactions") where rest[2] == "appAccountToken":
      (.setAppAccountToken, "PUT", [rest[1]])
    // `extend/mass` is Extend for All Subscribers, not an id.
    case ("v1", 3, "subscriptions") where rest[1] == "extend" && rest[2] != "mass":
      (.extendSubscriptionRenewalDate, "PUT", [rest[2]])
    case ("v2", 3, "refund") where rest[1] == "lookup":
      (.getRefundHistory, "GET", [rest[2]])
    case ("v1", 2, "lookup"):
      (.lookUpOrderID, "GET", [rest[1]])
    case ("v1", 2, "notifications") where rest[1] == "test":
      (.requestTestNotification, "POST", [])
    case ("v1", 3, "notifications") where rest[1] == "test":
      (.getTestNotificationStatus, "GET", [rest[2]])
    case ("v1", 2, "notifications") where rest[1] == "history":
      (.getNotificationHistory, "POST", [])
    default:
      nil
    }
  }
}
