import Foundation
import StoreEngine
import StoreTUI

/// The products of a catalog as a storefront in one locale shows them: localized names and
/// formatted prices. Rendered as a table or as JSON by `catalog show`.
struct ProductListing {
  struct Row {
    var product: Product
    var name: String
    var description: String
    /// The catalog locale the name came from (`ko` for `ko_KR`), or nil without localizations.
    var localization: String?
    var price: Money
    var formattedPrice: String
    var group: SubscriptionGroup?
  }

  var displayPath: String
  var catalog: Catalog
  var storefront: Storefront
  var locale: String
  var rows: [Row]

  init(catalog: Catalog, displayPath: String, storefront: Storefront, locale: String) {
    self.displayPath = displayPath
    self.catalog = catalog
    self.storefront = storefront
    self.locale = locale
    rows = catalog.products.map { product in
      let localization = product.localization(for: locale)
      let price = Money(charging: product.price, in: storefront)
      return Row(
        product: product, name: product.displayName(locale: locale), description: product.displayDescription(locale: locale),
        localization: localization?.locale, price: price, formattedPrice: price.formatted(locale: locale),
        group: product.subscription.flatMap { catalog.group($0.groupID) })
    }
  }

  /// The group's name in the listing's locale, else its reference name.
  func groupName(_ group: SubscriptionGroup) -> String {
    let localized = Localization.best(in: group.localizations, for: locale)?.displayName ?? ""
    return localized.isEmpty ? group.name : localized
  }

  /// A table aligned by display width, so CJK and emoji names line up.
  func table() -> String {
    var text = "Catalog: \(displayPath), format \(catalog.formatVersion)\n"
    text += "Storefront: \(storefront.code) (\(storefront.name), \(storefront.currencyCode)) · Locale: \(locale)\n\n"
    if rows.isEmpty { return text + "No products.\n" }
    let header = ["PRODUCT ID", "TYPE", "NAME", "PRICE", "PERIOD", "GROUP"]
    let cells = rows.map { row -> [String] in
      let subscription = row.product.subscription
      var period = subscription?.period.readable ?? ""
      if let intro = subscription?.introductoryOffer {
        period += intro.paymentMode == .freeTrial ? ", \(intro.period.readable) free" : ", intro offer"
      }
      let group = row.group.map { "\(groupName($0)) · level \(subscription?.level ?? 0)" } ?? ""
      return [row.product.id.rawValue, typeLabel(row), row.name, row.formattedPrice, period, group]
    }
    let caps = [48, 14, 32, 14, 24, 28]
    let widths = header.indices.map { column in
      min(caps[column], ([header[column]] + cells.map { $0[column] }).map(\.displayWidth).max() ?? 0)
    }
    func line(_ values: [String]) -> String {
      let padded = values.indices.map { column in
        values[column].padded(toWidth: widths[column], alignRight: column == 3)
      }
      return padded.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
    }
    text += line(header)
    for row in cells { text += line(row) }
    return text + notes()
  }

  /// `bundle` and `suite` for the subscriptions of 6.x bundle and suite groups, else the kind.
  func typeLabel(_ row: Row) -> String {
    switch row.group?.kind {
    case .bundle: "bundle"
    case .suite: "suite"
    case .regular, nil: row.product.kind.label
    }
  }

  /// One JSON document: the storefront, locale and every product, keys sorted.
  func json() throws -> String {
    let products: [[String: Any]] = rows.map { row in
      let subscription = row.product.subscription
      var object: [String: Any] = [
        "id": row.product.id.rawValue,
        "type": row.product.kind.catalogName,
        "name": row.name,
        "description": row.description,
        "localization": row.localization ?? NSNull(),
        "price": row.price.decimalString,
        "currency": row.price.currencyCode,
        "formattedPrice": row.formattedPrice,
        "familyShareable": row.product.familyShareable,
        "subscriptionPeriod": subscription?.period.iso8601 ?? NSNull(),
        "subscriptionGroup": NSNull(),
        "introductoryOffer": NSNull(),
      ]
      if let subscription {
        object["subscriptionGroup"] = [
          "id": subscription.groupID, "name": row.group.map(groupName) ?? "", "level": subscription.level,
          "kind": row.group?.kind.rawValue ?? SubscriptionGroup.Kind.regular.rawValue,
        ] as [String: Any]
        if !subscription.billingPlans.isEmpty {
          object["billingPlans"] = subscription.billingPlans.filter(\.isEnabled).map { plan in
            [
              "billingPlanType": plan.type, "price": charged(plan.price).decimalString,
              "commitmentPrice": charged(plan.commitmentPrice).decimalString,
            ]
          }
        }
        if !subscription.bundledSubscriptions.isEmpty {
          object["bundledSubscriptions"] = subscription.bundledSubscriptions.map { included in
            ["productId": included.productID.rawValue, "subscriptionGroupId": included.groupID, "name": includedName(included)]
          }
        }
        if let intro = subscription.introductoryOffer {
          object["introductoryOffer"] = [
            "paymentMode": intro.paymentMode.rawValue, "period": intro.period.iso8601,
            "numberOfPeriods": intro.numberOfPeriods, "price": intro.price.description,
          ] as [String: Any]
        }
      }
      return object
    }
    let document: [String: Any] = [
      "catalog": displayPath,
      "formatVersion": catalog.formatVersion.description,
      "storefront": storefront.code,
      "storefrontId": storefront.id,
      "currency": storefront.currencyCode,
      "locale": locale,
      "products": products,
    ]
    let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
