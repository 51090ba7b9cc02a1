import Foundation
import StoreEngine

/// A transaction's ledger JSON written directly, byte for byte what ``LedgerJSONCoder``'s
/// `JSONEncoder` writes for it (sorted keys, unescaped slashes, ``LedgerDateFormat`` dates).
///
/// Every commit encodes each transaction it puts: a day of every-2s renewals puts 43,200, and an
/// app that finishes them puts them all again. Measured with `perf` on that day
/// (`storefront-bench --profile-advance 86400 86400 finishing`), `JSONEncoder` on these rows was
/// ~40 % of the store's time, as much as both ES256 signatures of each renewal: its boxing,
/// dynamic casts and reference counting cost cycles that an instruction count (callgrind) barely
/// shows. Written field by field it is a copy of the strings.
///
/// Only what the common rows hold is written here: a row with anything else (an error, consumption
/// information, a date that is not whole milliseconds, a string that JSON would escape or that is
/// not ASCII) is left to `JSONEncoder` (``encode(_:)`` returns nil), so the stored bytes never
/// depend on which path wrote them. `TransactionRowJSONTests` compares the two on random rows.
enum TransactionRowJSON {
  /// The JSON of `transaction`, or nil when `JSONEncoder` must write it.
  static func encode(_ transaction: PaymentTransaction) -> String? {
    guard transaction.error == nil, transaction.consumption == nil, transaction.introductoryOfferAllowed == nil,
      transaction.billingPlanType == nil, transaction.commitment == nil, transaction.bundle == nil
    else { return nil }
    var writer = Writer()
    writer.bytes.reserveCapacity(
      640 + (transaction.signedTransaction?.utf8.count ?? 0) + (transaction.signedRenewalInfo?.utf8.count ?? 0))
    // Keys in the order `.sortedKeys` puts them; an optional that is nil is left out, as the
    // synthesized `encode(to:)` does.
    writer.bytes.append(UInt8(ascii: "{"))
    guard writer.string("account", transaction.account),
      writer.string("appAccountToken", transaction.appAccountToken),
      writer.string("appBundleID", transaction.appBundleID),
      writer.string("applicationUsername", transaction.applicationUsername),
      writer.string("currency", transaction.currency),
      writer.date("expiresDate", transaction.expiresDate),
      writer.string("familySharedBy", transaction.familySharedBy)
    else { return nil }
    writer.number("id", transaction.id.rawValue)
    writer.bool("isFinished", transaction.isFinished)
    writer.bool("isUpgraded", transaction.isUpgraded)
    writer.bool("needsResolution", transaction.needsResolution)
    guard writer.string("offerID", transaction.offerID),
      writer.string("offerPaymentMode", transaction.offerPaymentMode?.rawValue),
      writer.string("offerPeriod", transaction.offerPeriod)
    else { return nil }
    if let offerType = transaction.offerType { writer.number("offerType", offerType.rawValue) }
    writer.number("originalID", transaction.originalID.rawValue)
    guard writer.date("originalPurchaseDate", transaction.originalPurchaseDate),
      writer.string("ownerSession", transaction.ownerSession)
    else { return nil }
    writer.key("price")
    writer.append(transaction.price.description)
    guard writer.string("productID", transaction.productID.rawValue),
      writer.string("productKind", transaction.productKind.rawValue),
      writer.date("purchaseDate", transaction.purchaseDate)
    else { return nil }
    writer.number("quantity", transaction.quantity)
    guard writer.string("reason", transaction.reason.rawValue),
      writer.date("revocationDate", transaction.revocationDate)
    else { return nil }
    if let reason = transaction.revocationReason { writer.number("revocationReason", reason) }
    guard writer.string("signedRenewalInfo", transaction.signedRenewalInfo),
      writer.string("signedTransaction", transaction.signedTransaction)
    else { return nil }
    writer.number("state", transaction.state.rawValue)
    guard writer.string("storefront", transaction.storefront) else { return nil }
    if let id = transaction.subscribedTransactionID { writer.number("subscribedTransactionID", id.rawValue) }
    guard writer.string("subscriptionGroupID", transaction.subscriptionGroupID) else { return nil }
    if let id = transaction.webOrderLineItemID { writer.number("webOrderLineItemID", id) }
    writer.bytes[writer.bytes.count - 1] = UInt8(ascii: "}")  // the last member's comma
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// Appends `"key":value,` members; the caller closes the object over the last comma.
  private struct Writer {
    var bytes: [UInt8] = []

    mutating func key(_ key: StaticString) {
      bytes.append(UInt8(ascii: "\""))
      key.withUTF8Buffer { bytes.append(contentsOf: $0) }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(UInt8(ascii: ":"))
    }

    mutating func append(_ text: String) {
      bytes.append(contentsOf: text.utf8)
      bytes.append(UInt8(ascii: ","))
    }

    /// False when `value` needs escaping or is not ASCII: then `JSONEncoder` writes the row.
    mutating func string(_ name: StaticString, _ value: String?) -> Bool {
      guard var value else { return true }
      let plain = value.withUTF8 { utf8 in
        utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
      }
      guard plain else { return false }
      key(name)
      bytes.append(UInt8(ascii: "\""))
      value.withUTF8 { bytes.append(contentsOf: $0) }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(UInt8(ascii: ","))
      return true
    }

    /// False when the date has no exact ISO text (``LedgerDateFormat/exactText(for:)``).
    mutating func date(_ name: StaticString, _ value: Date?) -> Bool {
      guard let value else { return true }
      guard let text = LedgerDateFormat.exactText(for: value) else { return false }
      return string(name, text)
    }

    mutating func number<Value: BinaryInteger>(_ name: StaticString, _ value: Value) {
      key(name)
      append(String(value))
    }

    mutating func bool(_ name: StaticString, _ value: Bool) {
      key(name)
      append(value ? "true" : "false")
    }
  }
}

extension LedgerJSONCoder {
  /// A transaction's row: ``TransactionRowJSON`` when it can write it, otherwise `JSONEncoder`;
  /// the same bytes either way. Chosen over the generic `encode(_:)` wherever the value is known
  /// to be a `PaymentTransaction` (both ledgers' commits).
  package func encode(_ transaction: PaymentTransaction) throws -> String {
    if let json = TransactionRowJSON.encode(transaction) { return json }
    return try encodeWithFoundation(transaction)
  }

  /// The generic `encode(_:)` (called from a generic context, so not the overload above).
  package func encodeWithFoundation<Value: Encodable>(_ value: Value) throws -> String {
    try encode(value)
  }
}
