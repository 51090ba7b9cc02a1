import Foundation
import StoreEngine

/// A Catalog pane form: a product's fields (or a new product's, a group's, the settings), checked
/// as they are typed by making the edit on a copy of the file's text and loading the result.
public struct CatalogForm: Equatable, Sendable {
  public enum Purpose: Equatable, Sendable {
    case edit(Product.ID)
    case add
    case group(String)
    case settings
  }

  /// One field: a `catalog set` key (`price`, `name@ko`), or one of the form's own (`type`, `id`, settings).
  public struct Field: Equatable, Sendable {
    public var label: String
    public var key: String
    public var text: String
    /// What the field had when the form opened: only changed fields are written.
    public var original: String
    /// A field that picks one of these with ←/→ instead of being typed into.
    public var choices: [String]?

    init(_ label: String, key: String, text: String, choices: [String]? = nil) {
      self.label = label
      self.key = key
      self.text = text
      self.original = text
      self.choices = choices
    }

    var changed: Bool { text != original }
  }

  public var purpose: Purpose
  public var title: String
  public var fields: [Field]
  /// The focused field.
  public var field = 0
  /// What is wrong with the form as it stands (the same words as `catalog check`), or nil.
  public var problem: String?
  /// The focused field was just moved to: the first character typed replaces its text (as a
  /// selected field's would), so a price is retyped, not appended to.
  public var freshlyFocused = true

  mutating func focus(_ step: Int) {
    guard !fields.isEmpty else { return }
    field = (field + step + fields.count) % fields.count
    freshlyFocused = true
  }

  /// The lines above the fields.
  public var intro: String {
    switch purpose {
    case .add: "A new product (←/→ pick the type). Subscription fields are for auto-renewable ones."
    case .edit: "Only the fields you change are written. more: key=value … (promo@ID=free:P1M, code@NAME=…)."
    case .group: "The group's name, as App Store Connect shows it."
    case .settings: "The catalog's settings: what the sandbox starts with."
    }
  }

  mutating func type(_ character: Character) {
    guard fields.indices.contains(field), fields[field].choices == nil else { return }
    if freshlyFocused { fields[field].text = "" }
    freshlyFocused = false
    fields[field].text.append(character)
  }

  mutating func erase() {
    guard fields.indices.contains(field), fields[field].choices == nil, !fields[field].text.isEmpty else { return }
    freshlyFocused = false
    fields[field].text.removeLast()
  }

  mutating func cycle(_ step: Int) {
    guard fields.indices.contains(field), let choices = fields[field].choices, !choices.isEmpty else { return }
    let index = choices.firstIndex(of: fields[field].text) ?? 0
    fields[field].text = choices[(index + step + choices.count) % choices.count]
  }

  public func text(_ key: String) -> String { fields.first { $0.key == key }?.text ?? "" }
}

extension CatalogForm {
  /// The form for editing `product`.
  static func editing(_ product: Product, in catalog: Catalog) -> CatalogForm {
    var fields = [
      Field("Product ID", key: "id", text: product.id.rawValue),
      Field("Reference name", key: "reference-name", text: product.referenceName),
      Field("Price", key: "price", text: "\(product.price)"),
      Field("Family shareable", key: "family-shareable", text: product.familyShareable ? "true" : "false", choices: ["false", "true"]),
    ]
    for localization in product.localizations {
      fields.append(Field("Name [\(localization.locale)]", key: "name@\(localization.locale)", text: localization.displayName))
      fields.append(Field("Description [\(localization.locale)]", key: "description@\(localization.locale)", text: localization.description))
    }
    fields.append(Field("Add locale", key: "new-locale", text: ""))
    fields.append(Field("Its name", key: "new-name", text: ""))
    if let subscription = product.subscription {
      fields += [
        Field("Period", key: "period", text: subscription.period.iso8601, choices: CatalogOfferSpec.subscriptionPeriods),
        Field("Group", key: "group", text: catalog.group(subscription.groupID)?.name ?? subscription.groupID),
        Field("Level", key: "level", text: String(subscription.level)),
        Field("Intro offer", key: "intro", text: subscription.introductoryOffers.first.map(Self.spec) ?? "none"),
      ]
    }
    fields.append(Field("More (key=value …)", key: "more", text: ""))
    return CatalogForm(purpose: .edit(product.id), title: "Edit \(product.id)", fields: fields)
  }

  /// The form for a new product.
  static func adding(in catalog: Catalog) -> CatalogForm {
    let group = catalog.subscriptionGroups.first { $0.kind == .regular }?.name ?? ""
    let fields = [
      Field("Type", key: "type", text: "consumable", choices: CatalogTextEditor.typeNames.map(\.name)),
      Field("Product ID", key: "id", text: ""),
      Field("Price", key: "price", text: "0.99"),
      Field("Name [\(catalog.settings.locale)]", key: "name", text: ""),
      Field("Description", key: "description", text: ""),
      Field("Family shareable", key: "family-shareable", text: "false", choices: ["false", "true"]),
      Field("Group (subscription)", key: "group", text: group),
      Field("Period (subscription)", key: "period", text: "P1M", choices: CatalogOfferSpec.subscriptionPeriods),
      Field("Intro offer (subscription)", key: "intro", text: "none"),
      Field("More (key=value …)", key: "more", text: ""),
    ]
    return CatalogForm(purpose: .add, title: "Add a Product", fields: fields)
  }

  static func settings(of catalog: Catalog) -> CatalogForm {
    let settings = catalog.settings
    return CatalogForm(purpose: .settings, title: "Catalog Settings", fields: [
      Field("Storefront", key: "storefront", text: settings.storefront),
      Field("Locale", key: "locale", text: settings.locale),
      Field("Time rate", key: "time-rate", text: String(settings.timeRate), choices: TimeRate.all.map { String($0.rawValue) }),
      Field("Ask to Buy", key: "ask-to-buy", text: settings.askToBuyEnabled ? "on" : "off", choices: ["off", "on"]),
      Field("Fail transactions", key: "fail-transactions", text: settings.failTransactionsEnabled ? "on" : "off", choices: ["off", "on"]),
    ])
  }

  static func group(_ group: SubscriptionGroup) -> CatalogForm {
    CatalogForm(purpose: .group(group.id), title: "Group \(group.name)", fields: [Field("Name", key: "name", text: group.name)])
  }

  /// An offer in the key language (`free:P1W`).
  static func spec(_ offer: SubscriptionOffer) -> String {
    switch offer.paymentMode {
    case .freeTrial: offer.numberOfPeriods == 1 ? "free:\(offer.period)" : "free:\(offer.period):\(offer.numberOfPeriods)"
    case .payAsYouGo: "pay-as-you-go:\(offer.price):\(offer.period):\(offer.numberOfPeriods)"
    case .payUpFront, .oneTime: "pay-up-front:\(offer.price):\(offer.period)"
    }
  }
}
