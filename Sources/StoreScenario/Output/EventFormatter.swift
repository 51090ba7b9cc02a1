import Foundation
import StoreEngine

/// Turns engine events into output lines: JSON objects (one a line) or readable text like the
/// `print` lines of the seeds' observer code.
public struct EventFormatter: Sendable {
  public var json: Bool

  public init(json: Bool) { self.json = json }

  /// The lines for one event (a batch of transactions gives one line each). Clock ticks print nothing.
  public func lines(for event: StoreEvent, at time: Date, line: Int? = nil) -> [String] {
    fields(for: event).map { name, body in
      if json {
        var object = body
        object["event"] = name
        object["time"] = Self.timestamp(time)
        if let line { object["line"] = line }
        return Self.encode(object)
      }
      return "[\(Self.timestamp(time))] \(Self.text(name, body))"
    }
  }

  /// Event name and fields, as DESIGN.md lists them.
  public func fields(for event: StoreEvent) -> [(String, [String: Any])] {
    switch event {
    case .productsResponse(let request, let products, let invalid):
      return [("productsResponse", ["request": request, "products": products.map(\.rawValue), "invalidProductIdentifiers": invalid])]
    case .productsRequestFailed(let request, let error):
      return [("productsRequestFailed", ["request": request, "error": Self.error(error)])]
    case .transactionsUpdated(let list):
      return list.map { ("transactionUpdated", Self.transaction($0)) }
    case .transactionsRemoved(let list):
      return list.map { ("transactionRemoved", Self.transaction($0)) }
    case .restoreFinished(let count):
      return [("restoreFinished", ["restoredCount": count])]
    case .restoreFailed(let error):
      return [("restoreFailed", ["error": Self.error(error)])]
    case .shouldAddStorePayment(let product):
      return [("shouldAddStorePayment", ["productId": product.rawValue])]
    case .promptPresented(let prompt):
      return [("sheetPresented", Self.prompt(prompt))]
    case .promptDismissed:
      return [("sheetDismissed", [:])]
    case .accountChanged(let name):
      return [("accountChanged", ["account": name ?? NSNull()])]
    case .controlsChanged:
      return []
    case .transactionRevoked(let transaction):
      return [("transactionRevoked", Self.transaction(transaction))]
    case .subscriptionChanged(let record, let reason):
      return [("subscriptionStatusChanged", [
        "productId": record.productID.rawValue, "originalTransactionId": record.originalID.description,
        "status": record.status.rawValue, "reason": reason,
      ])]
    case .transactionsAmended:
      return []
    case .historyCleared(let account):
      return [("historyCleared", ["account": account])]
    case .clockAdvanced:
      return []
    case .misuse(let error):
      return [("error", ["error": error.name, "message": ScenarioErrorText.message(for: error)])]
    }
  }

  /// One transaction as a JSON object line (the `transactionUpdated` fields).
  public static func json(of transaction: PaymentTransaction) -> String {
    var object = self.transaction(transaction)
    object["finished"] = transaction.isFinished
    if transaction.price != 0 || transaction.state == .purchased {
      object["price"] = transaction.price.description
      object["currency"] = transaction.currency
    }
    return encode(object)
  }

  static func transaction(_ transaction: PaymentTransaction) -> [String: Any] {
    var object: [String: Any] = [
      "transactionId": transaction.id.description,
      "originalTransactionId": transaction.originalID.description,
      "productId": transaction.productID.rawValue,
      "state": transaction.state.name,
      "quantity": transaction.quantity,
      "account": transaction.account,
      "purchaseDate": timestamp(transaction.purchaseDate),
    ]
    if let error = transaction.error { object["error"] = self.error(error) }
    if let jws = transaction.signedTransaction { object["signedTransaction"] = jws }
    if let jws = transaction.signedRenewalInfo { object["signedRenewalInfo"] = jws }
    if let expires = transaction.expiresDate { object["expiresDate"] = timestamp(expires) }
    if let revoked = transaction.revocationDate { object["revocationDate"] = timestamp(revoked) }
    if transaction.reason == .renewal { object["reason"] = "renewal" }
    if let username = transaction.applicationUsername { object["applicationUsername"] = username }
    return object
  }

  static func error(_ error: StoreKitError) -> [String: Any] {
    ["code": error.code, "name": error.name, "domain": error.domain]
  }

  static func prompt(_ prompt: PurchasePrompt) -> [String: Any] {
    switch prompt {
    case .confirm(let id, let product, let quantity, let owned, let price):
      return [
        "sheet": owned ? "alreadyPurchased" : "confirmPurchase", "transactionId": id.description, "productId": product.rawValue,
        "quantity": quantity, "price": price.decimalString, "currency": price.currencyCode,
      ]
    case .signIn(.purchase(let id)):
      return ["sheet": "signIn", "transactionId": id.description]
    case .signIn(.restore):
      return ["sheet": "signIn", "for": "restore"]
    }
  }

  static func text(_ name: String, _ body: [String: Any]) -> String {
    switch name {
    case "transactionUpdated", "transactionRemoved", "transactionRevoked":
      let label = ["transactionUpdated": "updatedTransactions", "transactionRemoved": "removedTransactions", "transactionRevoked": "revoked"][name] ?? name
      var text = "\(label): \(body["productId"] ?? "") \(body["state"] ?? "") (id \(body["transactionId"] ?? ""), original \(body["originalTransactionId"] ?? ""), quantity \(body["quantity"] ?? 1))"
      if let error = body["error"] as? [String: Any] { text += " error \(error["name"] ?? "") (\(error["code"] ?? ""))" }
      if let expires = body["expiresDate"] { text += " expires \(expires)" }
      return text
    case "restoreFinished": return "paymentQueueRestoreCompletedTransactionsFinished (\(body["restoredCount"] ?? 0) restored)"
    case "restoreFailed":
      let error = body["error"] as? [String: Any]
      return "restoreCompletedTransactionsFailedWithError: \(error?["name"] ?? "") (\(error?["code"] ?? ""))"
    case "error": return "error: \(body["message"] ?? "")"
    default:
      let pairs = body.keys.sorted().map { "\($0)=\(body[$0] ?? "")" }
      return ([name] + pairs).joined(separator: " ")
    }
  }

  /// ISO 8601 UTC, seconds precision.
  public static func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
  }

  static func encode(_ object: [String: Any]) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
      return "{}"
    }
    return String(decoding: data, as: UTF8.self)
  }
}
