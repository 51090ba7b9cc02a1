import Foundation
import SandboxSigning
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

/// Shared dates, transactions and temporary directories for the signing tests.
enum SigningFixtures {
  static let bundleID = "com.example.storefront"
  /// 2024-05-01T00:00:00Z, the "now" of these tests.
  static let now = Date(timeIntervalSince1970: 1_714_521_600)
  /// notBefore of test CAs: 2020-09-13T12:26:40Z.
  static let validFrom = Date(timeIntervalSince1970: 1_600_000_000)

  static func context(signedDate: Date = now, environment: String = "Sandbox") -> SignedPayloadContext {
    SignedPayloadContext(bundleID: bundleID, signedDate: signedDate, environment: environment, storefrontID: "143441")
  }

  static func consumable() -> PaymentTransaction {
    var transaction = PaymentTransaction(
      id: .init(1_000_000_001), account: "tester", productID: "com.example.gems100", productKind: .consumable,
      state: .purchased, quantity: 3, purchaseDate: now.addingTimeInterval(-60), price: Decimal(string: "4.99") ?? 0)
    transaction.appAccountToken = nil
    return transaction
  }

  static func nonConsumable() -> PaymentTransaction {
    PaymentTransaction(
      id: .init(1_000_000_002), account: "tester", productID: "com.example.removeads", productKind: .nonConsumable,
      state: .purchased, applicationUsername: "5E6F7A8B-1C2D-4E3F-8A9B-0C1D2E3F4A5B",
      purchaseDate: now.addingTimeInterval(-30), price: Decimal(string: "2.99") ?? 0, currency: "EUR",
      storefront: "DEU")
  }

  static func nonRenewing() -> PaymentTransaction {
    PaymentTransaction(
      id: .init(1_000_000_003), account: "tester", productID: "com.example.season", productKind: .nonRenewingSubscription,
      state: .purchased, purchaseDate: now, expiresDate: now.addingTimeInterval(90 * 86_400),
      price: Decimal(string: "9.99") ?? 0)
  }

  static func autoRenewable(reason: PaymentTransaction.Reason = .purchase) -> PaymentTransaction {
    var transaction = PaymentTransaction(
      id: .init(reason == .purchase ? 1_000_000_004 : 1_000_000_005), originalID: .init(1_000_000_004),
      account: "tester", productID: "com.example.premium.monthly", productKind: .autoRenewableSubscription,
      state: .purchased, purchaseDate: now, originalPurchaseDate: now.addingTimeInterval(-30 * 86_400),
      expiresDate: now.addingTimeInterval(30 * 86_400), price: Decimal(string: "10.99") ?? 0, reason: reason)
    transaction.subscriptionGroupID = "21430001"
    transaction.webOrderLineItemID = 2_000_000_001
    return transaction
  }

  static func renewalInfo() -> RenewalInfo {
    RenewalInfo(
      originalTransactionID: .init(1_000_000_004), autoRenewProductID: "com.example.premium.monthly",
      productID: "com.example.premium.monthly", renewalDate: now.addingTimeInterval(30 * 86_400),
      recentSubscriptionStartDate: now.addingTimeInterval(-30 * 86_400), currency: "USD",
      renewalPrice: Decimal(string: "10.99") ?? 0)
  }

  /// A fresh empty directory under the system temporary directory; the test removes it.
  static func temporaryDirectory(_ label: String) throws -> URL {
    try TemporaryDirectory(label: "signing-\(label)").url
  }

  /// The payload JSON of a compact JWS as a dictionary, for checking JSON types.
  static func payloadObject(_ data: Data) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: data)
    return try XCTUnwrap(object as? [String: Any])
  }

  /// POSIX permission bits of a path.
  static func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try XCTUnwrap(attributes[.posixPermissions] as? Int) & 0o777
  }
}

/// The raw JSON token of each top-level key of a flat JSON object: `"price"` → `4990`,
/// `"transactionId"` → `"1000000001"` (quotes included), so tests can check Apple's exact wire types.
func jsonLiterals(_ data: Data) throws -> [String: String] {
  let text = String(decoding: data, as: UTF8.self)
  let pattern = #""([A-Za-z]+)":("(?:[^"\\]|\\.)*"|[^,}\]]+)"#
  let regex = try NSRegularExpression(pattern: pattern)
  var result: [String: String] = [:]
  for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
    guard let key = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: text) else {
      continue
    }
    result[String(text[key])] = String(text[value])
  }
  return result
}
