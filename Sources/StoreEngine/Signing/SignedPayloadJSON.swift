import Foundation

/// The JSON of a signed transaction's and a renewal info's payload written directly, byte for byte
/// what ``SignedPayloads/encode(_:)``'s `JSONEncoder` writes (sorted keys, unescaped slashes, nil
/// fields left out).
///
/// Every renewal signs both payloads: a day at every-2s encodes 86,400 of them, and `JSONEncoder`
/// (boxing each field, sorting the keys of every object) was about a tenth of that day's CPU.
/// Only plain strings are written here: a payload with a string that JSON would escape or that is
/// not ASCII is left to `JSONEncoder` (nil), so the signed bytes never depend on the path.
/// `SignedPayloadJSONTests` compares the two on random payloads.
enum SignedPayloadJSON {
  /// The JSON of `payload`, or nil when `JSONEncoder` must write it.
  static func encode(_ payload: JWSTransactionPayload) -> Data? {
    // A commitment's nested object is left to `JSONEncoder`.
    guard payload.commitmentInfo == nil else { return nil }
    // A bundle's fields (§47) are rare: `JSONEncoder` writes those payloads.
    guard payload.bundleProductId == nil, payload.bundleTransactionId == nil, payload.bundleOriginalTransactionId == nil,
      payload.bundleSubscriptionGroupIdentifier == nil, payload.previousOriginalTransactionId == nil
    else { return nil }
    var writer = Writer()
    // Keys in `.sortedKeys` order.
    guard writer.string("appAccountToken", payload.appAccountToken),
      writer.string("appTransactionId", payload.appTransactionId),
      writer.string("billingPlanType", payload.billingPlanType),
      writer.string("bundleId", payload.bundleId),
      writer.string("currency", payload.currency),
      writer.string("environment", payload.environment)
    else { return nil }
    writer.number("expiresDate", payload.expiresDate)
    guard writer.string("inAppOwnershipType", payload.inAppOwnershipType) else { return nil }
    writer.bool("isUpgraded", payload.isUpgraded)
    guard writer.string("offerDiscountType", payload.offerDiscountType),
      writer.string("offerIdentifier", payload.offerIdentifier),
      writer.string("offerPeriod", payload.offerPeriod)
    else { return nil }
    writer.number("offerType", payload.offerType)
    writer.number("originalPurchaseDate", payload.originalPurchaseDate)
    guard writer.string("originalTransactionId", payload.originalTransactionId) else { return nil }
    writer.number("price", payload.price)
    guard writer.string("productId", payload.productId) else { return nil }
    writer.number("purchaseDate", payload.purchaseDate)
    writer.number("quantity", payload.quantity)
    writer.number("revocationDate", payload.revocationDate)
    writer.number("revocationPercentage", payload.revocationPercentage)
    writer.number("revocationReason", payload.revocationReason)
    guard writer.string("revocationType", payload.revocationType) else { return nil }
    writer.number("signedDate", payload.signedDate)
    guard writer.string("storefront", payload.storefront),
      writer.string("storefrontId", payload.storefrontId),
      writer.string("subscriptionGroupIdentifier", payload.subscriptionGroupIdentifier),
      writer.string("transactionId", payload.transactionId),
      writer.string("transactionReason", payload.transactionReason),
      writer.string("type", payload.type),
      writer.string("webOrderLineItemId", payload.webOrderLineItemId)
    else { return nil }
    return writer.finish()
  }

  /// The JSON of `payload`, or nil when `JSONEncoder` must write it.
  static func encode(_ payload: JWSRenewalInfoPayload) -> Data? {
    guard payload.commitmentInfo == nil else { return nil }
    var writer = Writer()
    guard writer.string("appAccountToken", payload.appAccountToken),
      writer.string("autoRenewProductId", payload.autoRenewProductId)
    else { return nil }
    writer.number("autoRenewStatus", payload.autoRenewStatus)
    guard writer.string("currency", payload.currency),
      writer.strings("eligibleWinBackOfferIds", payload.eligibleWinBackOfferIds),
      writer.string("environment", payload.environment)
    else { return nil }
    writer.number("expirationIntent", payload.expirationIntent)
    writer.number("gracePeriodExpiresDate", payload.gracePeriodExpiresDate)
    writer.bool("isInBillingRetryPeriod", payload.isInBillingRetryPeriod)
    guard writer.string("offerDiscountType", payload.offerDiscountType),
      writer.string("offerIdentifier", payload.offerIdentifier),
      writer.string("offerPeriod", payload.offerPeriod)
    else { return nil }
    writer.number("offerType", payload.offerType)
    guard writer.string("originalTransactionId", payload.originalTransactionId) else { return nil }
    writer.number("priceIncreaseStatus", payload.priceIncreaseStatus)
    guard writer.string("productId", payload.productId) else { return nil }
    writer.number("recentSubscriptionStartDate", payload.recentSubscriptionStartDate)
    guard writer.string("renewalBillingPlanType", payload.renewalBillingPlanType) else { return nil }
    writer.number("renewalDate", payload.renewalDate)
    writer.number("renewalPrice", payload.renewalPrice)
    writer.number("signedDate", payload.signedDate)
    return writer.finish()
  }

  /// Appends `"key":value,` members; ``finish()`` closes the object over the last comma.
  private struct Writer {
    var bytes: [UInt8] = [UInt8(ascii: "{")]

    init() { bytes.reserveCapacity(1024) }

    mutating func finish() -> Data {
      if bytes.count == 1 { bytes.append(UInt8(ascii: "}")) } else { bytes[bytes.count - 1] = UInt8(ascii: "}") }
      return Data(bytes)
    }

    private mutating func key(_ key: StaticString) {
      bytes.append(UInt8(ascii: "\""))
      key.withUTF8Buffer { bytes.append(contentsOf: $0) }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(UInt8(ascii: ":"))
    }

    /// Appends `"value"`; false when it needs escaping or is not ASCII.
    private mutating func quoted(_ value: String) -> Bool {
      var value = value
      return value.withUTF8 { utf8 in
        guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
          return false
        }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
        return true
      }
    }

    mutating func string(_ name: StaticString, _ value: String?) -> Bool {
      guard let value else { return true }
      key(name)
      guard quoted(value) else { return false }
      bytes.append(UInt8(ascii: ","))
      return true
    }

    mutating func strings(_ name: StaticString, _ values: [String]?) -> Bool {
      guard let values else { return true }
      key(name)
      bytes.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        guard quoted(value) else { return false }
      }
      bytes.append(UInt8(ascii: "]"))
      bytes.append(UInt8(ascii: ","))
      return true
    }

    mutating func number<Value: BinaryInteger>(_ name: StaticString, _ value: Value?) {
      guard let value else { return }
      key(name)
      bytes.append(contentsOf: String(value).utf8)
      bytes.append(UInt8(ascii: ","))
    }

    mutating func bool(_ name: StaticString, _ value: Bool?) {
      guard let value else { return }
      key(name)
      bytes.append(contentsOf: (value ? "true" : "false").utf8)
      bytes.append(UInt8(ascii: ","))
    }
  }
}
