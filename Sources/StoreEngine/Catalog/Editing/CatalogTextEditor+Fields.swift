/// Setting a product's fields: each edit touches the bytes of its own value, or adds the member
/// the product lacks.
extension CatalogTextEditor {
  /// Applies `edits` to `product` in order; on a failure nothing is changed.
  public mutating func apply(_ edits: [CatalogEdit], to product: String) throws(Failure) {
    var copy = self
    var id = product
    for edit in edits {
      try copy.apply(edit, to: id)
      if case .productID(let new) = edit { id = new }
    }
    self = copy
  }

  private mutating func apply(_ edit: CatalogEdit, to product: String) throws(Failure) {
    var path = try path(of: product)
    if edit.needsSubscription, !isSubscription(path) { throw .notASubscription(product: product, key: edit.key) }
    switch edit {
    case .price(let price):
      guard text.exists(path.appending("displayPrice")) else { throw .noPrice(product) }
      try set(path.appending("displayPrice"), .string(price))
    case .name(let value, let locale):
      try setLocalized("displayName", to: value, locale: locale, at: path, product: product)
    case .description(let value, let locale):
      try setLocalized("description", to: value, locale: locale, at: path, product: product)
    case .referenceName(let name):
      try set(path.appending("referenceName"), .string(name))
    case .productID(let new):
      guard new != product else { return }
      guard !products().contains(where: { $0.id == new }) else { throw .duplicateProduct(new) }
      try set(path.appending("productID"), .string(new))
    case .familyShareable(let shared):
      try set(path.appending("familyShareable"), .bool(shared))
    case .period(let period):
      try set(path.appending("recurringSubscriptionPeriod"), .string(period.iso8601))
    case .level(let level):
      try set(path.appending("groupNumber"), .number(String(level)))
    case .group(let name):
      let from = groupPath(of: path)
      let target = try groupPath(named: name)
      guard target != from else { return }
      try move(product, at: path, to: target)
      path = try self.path(of: product)
    case .intro(let offer):
      let json = offer.map { $0.json(internalID: newInternalID()) } ?? .null
      try set(path.appending("introductoryOffer"), json)
      // Format 5.0 writes the offer in an array too; keep both saying the same.
      if text.exists(path.appending("introductoryOffers")) {
        try set(path.appending("introductoryOffers"), .array(offer == nil ? [] : [json]))
      }
    case .promotional(let id, let offer):
      try setOffer(in: path.appending("adHocOffers"), matching: "offerID", id, offer) { id, offer in
        [.init("offerID", .string(id)), .init("referenceName", .string(id))]
      }
    case .offerCode(let name, let offer):
      try setOffer(in: path.appending("codeOffers"), matching: "referenceName", name, offer) { name, _ in
        [.init("referenceName", .string(name)), .init("eligibility", .array([.string("new"), .string("existing"), .string("expired")])), .init("isStackable", .bool(false))]
      }
    case .winBack(let id, let offer):
      try setOffer(in: path.appending("winbackOffers"), matching: "offerID", id, offer) { id, _ in
        [.init("offerID", .string(id)), .init("referenceName", .string(id))]
      }
    }
  }

  /// Sets or adds a member, turning a shape the editor cannot change into a ``Failure``.
  mutating func set(_ path: JSONPath, _ value: JSONText, template: [String] = []) throws(Failure) {
    do { try text.set(path, to: value) } catch { throw .unexpectedShape(error.path) }
  }

  private mutating func setLocalized(_ key: String, to value: String, locale: String?, at path: JSONPath, product: String) throws(Failure) {
    let array = path.appending("localizations")
    if !text.exists(array) { try set(array, .array([])) }
    let count = text.map.count(of: array)
    let locales = (0..<count).map { text.string(at: array.appending($0).appending("locale")) ?? "" }
    if let index = locale.map({ wanted in locales.firstIndex(of: wanted) }) ?? (count > 0 ? 0 : nil) {
      try set(array.appending(index).appending(key), .string(value))
      return
    }
    let newLocale = locale ?? defaultLocale
    guard CatalogLocale.isKnown(newLocale) else { throw .unknownLocale(newLocale) }
    let entry = JSONText.object([
      .init("description", .string(key == "description" ? value : "")),
      .init("displayName", .string(key == "displayName" ? value : "")),
      .init("locale", .string(newLocale)),
    ])
    do { try text.insertElement(entry, into: array) } catch { throw .unexpectedShape(error.path) }
  }

  /// Replaces, adds or (offer nil) removes the offer whose `key` is `value` in the array at `array`.
  private mutating func setOffer(
    in array: JSONPath, matching key: String, _ value: String, _ offer: CatalogOfferSpec?,
    extra: (String, CatalogOfferSpec?) -> [JSONText.Member]
  ) throws(Failure) {
    if !text.exists(array) {
      guard offer != nil else { return }
      try set(array, .array([]))
    }
    let count = text.map.count(of: array)
    let index = (0..<count).first { text.string(at: array.appending($0).appending(key)) == value }
    guard let offer else {
      if let index { do { try text.removeElement(index, of: array) } catch { throw .unexpectedShape(error.path) } }
      return
    }
    if let index {
      let internalID = text.string(at: array.appending(index).appending("internalID")) ?? newInternalID()
      try set(array.appending(index), offer.json(internalID: internalID, extra: extra(value, offer)))
    } else {
      let json = offer.json(internalID: newInternalID(), extra: extra(value, offer))
      do { try text.insertElement(json, into: array) } catch { throw .unexpectedShape(error.path) }
    }
  }
}
