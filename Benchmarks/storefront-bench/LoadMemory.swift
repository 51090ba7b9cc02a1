import Foundation
import StoreEngine

/// Where the 10k catalog's memory goes: fresh processes that only read the file, only run
/// `JSONSerialization` on it, or run the full `CatalogDecoder`, each measured by ``RSSProbe``.
enum LoadMemory {
  static let flag = "--load-only"
  static let modes = ["read", "jsonserialization", "decode", "jsondecoder"]

  /// The child's body: load `path` the way `mode` says and exit.
  static func main(_ arguments: [String]) -> Int32 {
    guard arguments.count == 2, let data = FileManager.default.contents(atPath: arguments[1]) else { return 66 }
    switch arguments[0] {
    case "read":
      return data.isEmpty ? 65 : 0
    case "jsonserialization":
      let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return object == nil ? 65 : 0
    case "jsondecoder":
      let file = try? JSONDecoder().decode(CodableCatalog.self, from: data)
      return file == nil ? 65 : 0
    case "decode":
      let catalog = try? CatalogDecoder().decode(data, path: arguments[1])
      return catalog == nil ? 65 : 0
    default:
      return 64
    }
  }

  static func run(benchPath: String, catalogPath: String, scratch: URL, into report: Report) throws {
    var peaks: [String: Double] = [:]
    for mode in modes {
      let file = scratch.appendingPathComponent("rss-load-\(mode)").path
      let process = try PtyProcess(
        executable: benchPath, arguments: [RSSProbe.flag, file, benchPath, flag, mode, catalogPath],
        environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], columns: 200, rows: 60)
      _ = process.readToEnd(timeout: 60)
      let status = try process.waitForExit().status
      guard status == 0 else { throw BenchError.failed("the \(mode) memory probe exited \(status)") }
      peaks[mode] = try RSSProbe.read(file)
    }
    report.extra("catalog_10k_peak_rss_mb", peaks)
  }
}

/// The `.storekit` schema as `Codable` structs: what `JSONDecoder` (no Foundation object tree) would
/// cost in memory, for comparison with the `JSONSerialization`-based decoder.
struct CodableCatalog: Decodable {
  struct Localization: Decodable {
    var description: String
    var displayName: String
    var locale: String
  }
  struct Offer: Decodable {
    var internalID: String
    var numberOfPeriods: Int
    var paymentMode: String
    var subscriptionPeriod: String
  }
  struct Product: Decodable {
    var displayPrice: String
    var familyShareable: Bool
    var internalID: String
    var localizations: [Localization]
    var productID: String
    var referenceName: String
    var type: String
    var groupNumber: Int?
    var introductoryOffer: Offer?
    var recurringSubscriptionPeriod: String?
    var subscriptionGroupID: String?
  }
  struct Group: Decodable {
    var id: String
    var localizations: [Localization]
    var name: String
    var subscriptions: [Product]
  }
  var identifier: String
  var nonRenewingSubscriptions: [Product]
  var products: [Product]
  var subscriptionGroups: [Group]
}
