import Foundation

/// Writes synthetic `.storekit` catalogs in Xcode's format (the shape of `Catalog/Default.storekit`:
/// version 4.0, `settings`, four localizations per product and group), so the benchmarks need no
/// checked-in fixtures.
///
/// Of `count` products, 5 % are auto-renewable subscriptions (groups of 10, each with an
/// introductory offer), 5 % non-renewing subscriptions, and the rest alternate consumable and
/// non-consumable.
enum CatalogGenerator {
  static let flag = "--write-catalog"

  /// `storefront-bench --write-catalog PRODUCTS PATH`: writes the generated catalog, e.g. to
  /// profile `storefront --catalog PATH` by hand.
  static func main(_ arguments: [String]) -> Int32 {
    guard arguments.count == 2, let count = Int(arguments[0]) else { return 64 }
    do {
      try data(products: count).write(to: URL(fileURLWithPath: arguments[1]))
      return 0
    } catch {
      FileHandle.standardError.write(Data("write-catalog: \(error)\n".utf8))
      return 1
    }
  }

  static func data(products count: Int) throws -> Data {
    let subscriptionCount = count / 20
    let nonRenewingCount = count / 20
    let plainCount = count - subscriptionCount - nonRenewingCount
    var internalID = 0x1000_0000
    func nextInternalID() -> String {
      internalID += 1
      return String(internalID, radix: 16, uppercase: true)
    }

    var products: [[String: Any]] = []
    products.reserveCapacity(plainCount)
    for index in 0..<plainCount {
      let consumable = index % 2 == 0
      products.append([
        "displayPrice": price(index), "familyShareable": !consumable, "internalID": nextInternalID(),
        "localizations": localizations(name: consumable ? "Coins pack \(index)" : "Feature \(index)", index: index),
        "productID": "com.bench.storefront.item\(index)", "referenceName": "Item \(index)",
        "type": consumable ? "Consumable" : "NonConsumable",
      ])
    }
    var nonRenewing: [[String: Any]] = []
    for index in 0..<nonRenewingCount {
      nonRenewing.append([
        "displayPrice": price(index + 7), "familyShareable": false, "internalID": nextInternalID(),
        "localizations": localizations(name: "Season pass \(index)", index: index),
        "productID": "com.bench.storefront.pass\(index)", "referenceName": "Pass \(index)",
        "type": "NonRenewingSubscription",
      ])
    }
    var groups: [[String: Any]] = []
    let groupSize = 10
    for groupIndex in 0..<(subscriptionCount + groupSize - 1) / groupSize {
      let groupID = nextInternalID()
      var subscriptions: [[String: Any]] = []
      for level in 0..<min(groupSize, subscriptionCount - groupIndex * groupSize) {
        let index = groupIndex * groupSize + level
        subscriptions.append([
          "adHocOffers": [], "codeOffers": [], "displayPrice": price(index + 3), "familyShareable": true,
          "groupNumber": level + 1, "internalID": nextInternalID(),
          "introductoryOffer": [
            "internalID": nextInternalID(), "numberOfPeriods": 1, "paymentMode": "free", "subscriptionPeriod": "P1W",
          ],
          "localizations": localizations(name: "Plan \(index)", index: index),
          "productID": "com.bench.storefront.plan\(index)",
          "recurringSubscriptionPeriod": level % 2 == 0 ? "P1M" : "P1Y", "referenceName": "Plan \(index)",
          "subscriptionGroupID": groupID, "type": "RecurringSubscription", "winbackOffers": [],
        ])
      }
      groups.append([
        "id": groupID, "localizations": localizations(name: "Group \(groupIndex)", index: groupIndex),
        "name": "Group \(groupIndex)", "subscriptions": subscriptions,
      ])
    }
    let root: [String: Any] = [
      "appPolicies": ["eula": "", "policies": [["locale": "en_US", "policyText": "", "policyURL": ""]]],
      "identifier": "BENCH\(count)",
      "nonRenewingSubscriptions": nonRenewing,
      "products": products,
      "settings": settings,
      "subscriptionGroups": groups,
      "version": ["major": 4, "minor": 0],
    ]
    return try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
  }

  /// Writes the catalog to `directory/Bench<count>.storekit` and returns its path.
  static func write(products count: Int, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent("Bench\(count).storekit")
    try data(products: count).write(to: url)
    return url
  }

  private static func price(_ index: Int) -> String {
    ["0.99", "1.99", "2.99", "4.99", "9.99", "19.99", "49.99", "99.99"][index % 8]
  }

  private static func localizations(name: String, index: Int) -> [[String: String]] {
    [
      ["description": "\(name): everything it unlocks, explained in one sentence.", "displayName": name, "locale": "en_US"],
      ["description": "\(name)のすべてを一文で説明します。", "displayName": "\(name)（日本語）", "locale": "ja"],
      ["description": "\(name)의 모든 것을 한 문장으로 설명합니다.", "displayName": "\(name) 한국어", "locale": "ko"],
      ["description": "用一句话说明\(name)的全部内容。", "displayName": "\(name)（中文）", "locale": "zh_Hans"],
    ]
  }

  private static var settings: [String: Any] {
    [
    "_askToBuyEnabled": false, "_billingGracePeriodEnabled": false, "_billingIssuesEnabled": false,
    "_disableDialogs": false, "_failTransactionsEnabled": false, "_locale": "en_US",
    "_renewalBillingIssuesEnabled": false,
    "_storeKitErrors": [
      "Load Products", "Purchase", "Verification", "App Store Sync", "Subscription Status", "App Transaction",
      "Manage Subscriptions Sheet", "Refund Request Sheet", "Offer Code Redeem Sheet",
    ].map { ["current": NSNull(), "enabled": false, "name": $0] as [String: Any] },
    "_storefront": "USA", "_timeRate": 0,
    ]
  }
}
