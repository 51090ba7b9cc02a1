import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Issue 12: Apple's `SignedDataVerifier` accepts every payload the new subscription paths sign
/// (B33 pay-as-you-go periods with `offerPeriod`, B39/B40 renewal infos in grace and billing retry,
/// B48 `priceIncreaseStatus`, B51 a signed promotional offer, B53 `eligibleWinBackOfferIds` and a
/// win-back purchase, B44 an upgrade).
final class SubscriptionPayloadAppleTests: XCTestCase {
  static let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"
  static let yearly = "com.jake.sample.ExInAppPurchase.premium.yearly"
  static let comeback = "com.jake.sample.ExInAppPurchase.premium.yearly.comeback"

  /// The default catalog with a pay-as-you-go introductory offer and a win-back offer on the monthly plan.
  func catalog(in scratch: TemporaryDirectory) throws -> String {
    let source = StorefrontBinary.packageRoot.appendingPathComponent("Catalog/Default.storekit")
    var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
    var groups = try XCTUnwrap(root["subscriptionGroups"] as? [[String: Any]])
    for (groupIndex, group) in groups.enumerated() {
      var subscriptions = try XCTUnwrap(group["subscriptions"] as? [[String: Any]])
      for (index, subscription) in subscriptions.enumerated() where subscription["productID"] as? String == Self.monthly {
        var changed = subscription
        changed["introductoryOffer"] = [
          "internalID": "9E4B2A10", "numberOfPeriods": 3, "paymentMode": "payAsYouGo", "displayPrice": "0.99",
          "subscriptionPeriod": "P1M",
        ]
        changed["winbackOffers"] = [
          ["internalID": "WB000001", "numberOfPeriods": 1, "paymentMode": "payUpFront", "displayPrice": "0.99",
           "referenceName": "Come back", "subscriptionPeriod": "P1M"],
        ]
        subscriptions[index] = changed
      }
      groups[groupIndex]["subscriptions"] = subscriptions
    }
    root["subscriptionGroups"] = groups
    let path = scratch.path("offers.storekit")
    try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: path))
    return path
  }

  func testAppleAcceptsThePayloadsOfEverySubscriptionPath() throws {
    let scratch = try TemporaryDirectory(self)
    let apple = try AppleVerifier.preparedOrSkipped()
    let script = scratch.path("subs.scenario")
    try Data("""
      account subscriber
      set dialogs off
      buy \(Self.monthly)
      advance P1M
      billing-issue on
      grace on
      advance P1M
      billing-issue off
      resolve-billing \(Self.monthly)
      price-increase \(Self.monthly) request price=5.99
      price-increase \(Self.monthly) accept
      auto-renew \(Self.monthly) off
      advance P3M
      buy \(Self.monthly) offer=WB000001
      expect state last purchased
      buy \(Self.yearly)
      expect not-owned \(Self.monthly)
      expire \(Self.yearly)
      buy \(Self.yearly) offer=\(Self.comeback) signed
      expect state last purchased

      """.utf8).write(to: URL(fileURLWithPath: script))
    let data = scratch.path("data")
    let result = try StorefrontBinary.run(
      ["run", script, "--json", "--catalog", try catalog(in: scratch), "--data-dir", data], in: scratch)
    XCTAssertEqual(result.status, 0, result.summary)
    let root = scratch.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", data], in: scratch).status, 0)
    var cases: [AppleVerifier.Case] = []
    var seen: Set<String> = []
    for event in EventLine.parse(result.stdout, source: "subs") {
      for (field, kind) in [("signedTransaction", AppleVerifier.Case.Kind.transaction), ("signedRenewalInfo", .renewal)] {
        guard let jws = event.object[field] as? String, seen.insert(jws).inserted else { continue }
        cases.append(.init(name: "line \(event.number) \(field)", kind: kind, jws: jws, rootDER: root, bundleID: "com.example.storefront"))
      }
    }
    let payloads = cases.map { String(decoding: Data(base64URLEncodedText: $0.jws) ?? Data(), as: UTF8.self) }
    for field in ["offerPeriod", "eligibleWinBackOfferIds", "priceIncreaseStatus", "gracePeriodExpiresDate"] {
      XCTAssertTrue(payloads.contains { $0.contains("\"\(field)\"") }, "no payload carries \(field)")
    }
    let verdicts = try apple.verify(cases)
    for item in cases {
      XCTAssertEqual(verdicts[item.name]?.status, 0, "\(item.name): \(verdicts[item.name]?.cause ?? "no verdict")")
    }
  }
}

extension Data {
  /// The payload segment of a compact JWS, decoded.
  fileprivate init?(base64URLEncodedText jws: String) {
    let parts = jws.split(separator: ".")
    guard parts.count == 3 else { return nil }
    var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    self.init(base64Encoded: text)
  }
}
