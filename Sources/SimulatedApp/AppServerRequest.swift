import Foundation
import StoreEngine

/// What the simulated app POSTs to its own server after a purchase, as seed 002's app sends its
/// receipt: a JSON object (see Docs/Scenarios.md, "The simulated app and its server").
///
/// ```json
/// {"originalTransactionId":"1000000001","productId":"com.example.coins100","receipt":"MIIT…",
///  "signedTransaction":"eyJhbGciOiJFUzI1NiIs…","transactionId":"1000000001"}
/// ```
public struct AppServerRequest: Sendable, Equatable, Encodable {
  /// Where it goes.
  public var url: String
  public var transactionID: String
  public var originalTransactionID: String
  public var productID: String
  /// The JWS the app got with the transaction (StoreKit 2's `jwsRepresentation`).
  public var signedTransaction: String?
  /// The app receipt, base64; left out when the store has none to give.
  public var receipt: String?
  /// The signed-in account, whose receipt the shell reads; not sent.
  public var account: String

  enum CodingKeys: String, CodingKey {
    case transactionID = "transactionId"
    case originalTransactionID = "originalTransactionId"
    case productID = "productId"
    case signedTransaction, receipt
  }

  /// The request for `transaction`, without a receipt (the shell adds it).
  public init(transaction: PaymentTransaction, url: String) {
    self.url = url
    transactionID = transaction.id.description
    originalTransactionID = transaction.originalID.description
    productID = transaction.productID.rawValue
    signedTransaction = transaction.signedTransaction
    account = transaction.account
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(transactionID, forKey: .transactionID)
    try container.encode(originalTransactionID, forKey: .originalTransactionID)
    try container.encode(productID, forKey: .productID)
    try container.encodeIfPresent(signedTransaction, forKey: .signedTransaction)
    try container.encodeIfPresent(receipt, forKey: .receipt)
  }

  /// The transaction's id as the engine counts it.
  public var id: PaymentTransaction.ID? { UInt64(transactionID).map(PaymentTransaction.ID.init(rawValue:)) }

  /// Adds the receipt `read` gives for the account (base64); without data the field is left out.
  /// - Returns: why the receipt could not be read, if it could not.
  public mutating func attachReceipt(_ read: ((String) throws -> Data?)?) -> String? {
    guard let read else { return nil }
    do {
      receipt = try read(account)?.base64EncodedString()
      return nil
    } catch {
      return "no receipt sent: \(error)"
    }
  }

  /// The JSON body, keys sorted so bodies compare byte for byte.
  public var body: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)) ?? Data("{}".utf8)
  }
}
