import Foundation

/// The `settings` block: defaults for the sandbox controls.
extension CatalogWalker {
  mutating func settings(from value: JSONValue, path: JSONPath) -> CatalogSettings {
    var settings = CatalogSettings()
    guard !value.isNull else { return settings }
    guard let object = value.objectValue else {
      report(path, "must be an object, not \(value.kind)", hint: "write \"settings\" : { }, or { \"_storefront\" : \"USA\", \"_locale\" : \"en_US\" }")
      return settings
    }
    if let code = string(object, "_storefront", in: path, example: "USA") {
      if let storefront = Storefront.lookup(code) {
        settings.storefront = storefront.code
      } else {
        let didYouMean = NearMatch.closest(to: code, in: Storefront.all.map(\.code)).map { "did you mean '\($0)'? " } ?? ""
        report(path.appending("_storefront"), "unknown storefront '\(code)'", hint: "\(didYouMean)use an ISO 3166-1 alpha-3 App Store storefront code such as USA, KOR, JPN, CHN, GBR or DEU")
      }
    }
    if let locale = string(object, "_locale", in: path, example: "en_US") {
      if locale.isEmpty {
        report(path.appending("_locale"), "locale is empty", hint: "write a locale such as \"en_US\", \"ko_KR\" or \"ja_JP\"")
      } else {
        settings.locale = locale
      }
    }
    // `_compatibilityTimeRate` is Xcode's fallback rate for older runtimes; `_timeRate` is what counts.
    settings.timeRate = int(object, "_timeRate", in: path, example: "0") ?? 0
    settings.askToBuyEnabled = bool(object, "_askToBuyEnabled", in: path) ?? false
    settings.failTransactionsEnabled = bool(object, "_failTransactionsEnabled", in: path) ?? false
    settings.disableDialogs = bool(object, "_disableDialogs", in: path) ?? false
    settings.billingGracePeriodEnabled = bool(object, "_billingGracePeriodEnabled", in: path) ?? false
    settings.renewalBillingIssuesEnabled = bool(object, "_renewalBillingIssuesEnabled", in: path) ?? false
    settings.billingIssuesEnabled = bool(object, "_billingIssuesEnabled", in: path) ?? false
    settings.storeKitErrors = storeKitErrors(object["_storeKitErrors"], path: path.appending("_storeKitErrors"))
    return settings
  }

  private mutating func storeKitErrors(_ value: JSONValue?, path: JSONPath) -> [StoreKitErrorSetting] {
    guard let value, !value.isNull else { return [] }
    guard let array = value.arrayValue else {
      report(path, "must be an array, not \(value.kind)", hint: "write \"_storeKitErrors\" : [ { \"current\" : null, \"enabled\" : false, \"name\" : \"Purchase\" } ]")
      return []
    }
    var result: [StoreKitErrorSetting] = []
    for (index, element) in array.enumerated() {
      let entryPath = path.appending(index)
      guard let object = element.objectValue else {
        report(entryPath, "must be an object with current, enabled and name, not \(element.kind)", hint: "write { \"current\" : null, \"enabled\" : false, \"name\" : \"Purchase\" }")
        continue
      }
      guard let name = string(object, "name", in: entryPath, required: true, example: "Purchase") else { continue }
      let enabled = bool(object, "enabled", in: entryPath) ?? false
      var setting = StoreKitErrorSetting(name: name, enabled: enabled)
      if let current = object["current"], !current.isNull {
        let currentPath = entryPath.appending("current")
        if let currentObject = current.objectValue {
          setting.errorIndex = int(currentObject, "index", in: currentPath)
          setting.errorType = string(currentObject, "type", in: currentPath, example: "generic")
        } else {
          report(currentPath, "must be null or an object like { \"index\" : 4, \"type\" : \"generic\" }, not \(current.kind)", hint: "write \"current\" : null when no error is selected")
        }
      }
      result.append(setting)
    }
    return result
  }
}
