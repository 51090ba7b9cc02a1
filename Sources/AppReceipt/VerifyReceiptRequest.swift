import Foundation

/// A `verifyReceipt` body as Apple reads it: JSON whatever the content type (clients send it with
/// `curl -d`), `receipt-data` base64, `password`, and `exclude-old-transactions` as a boolean or
/// the strings "true"/"false" some clients send.
public struct VerifyReceiptRequest: Sendable, Equatable {
  public var receiptData: String
  public var password: String?
  public var excludeOldTransactions: Bool

  /// Parses `body`; nil when it is not a JSON object with a string `receipt-data` and well-typed
  /// optional fields (verifyReceipt's 21002).
  public init?(body: Data) {
    guard let object = Self.object(body) else { return nil }
    guard let receipt = object["receipt-data"] as? String else { return nil }
    receiptData = receipt
    switch object["password"] {
    case nil, is NSNull: password = nil
    case let text as String: password = text
    default: return nil
    }
    switch object["exclude-old-transactions"] {
    case nil, is NSNull: excludeOldTransactions = false
    case let text as String:
      guard let flag = ["true": true, "false": false][text.lowercased()] else { return nil }
      excludeOldTransactions = flag
    case let number as NSNumber:
      // JSON true/false and 0/1 both arrive as NSNumber.
      guard number == 0 || number == 1 else { return nil }
      excludeOldTransactions = number.boolValue
    default: return nil
    }
  }

  /// Seed 002's app writes base64 with line feeds straight into the JSON string; Apple's server
  /// accepts that, a strict parser does not, so raw line breaks are dropped and the parse retried.
  private static func object(_ body: Data) -> [String: Any]? {
    if let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] { return object }
    let cleaned = Data(body.filter { $0 != 0x0A && $0 != 0x0D })
    guard cleaned.count != body.count else { return nil }
    return (try? JSONSerialization.jsonObject(with: cleaned)) as? [String: Any]
  }
}
