/// Adding, removing, duplicating and moving products and groups.
extension CatalogTextEditor {
  /// The product types `catalog add` takes, with the kind each makes.
  public static let typeNames: [(name: String, kind: ProductKind)] = [
    ("consumable", .consumable), ("non-consumable", .nonConsumable),
    ("non-renewing", .nonRenewingSubscription), ("auto-renewable", .autoRenewableSubscription),
  ]

  /// The kind a type name names (`consumable`, `non-consumable`, `non-renewing`, `auto-renewable`).
  public static func kind(named name: String) throws(Failure) -> ProductKind {
    guard let found = typeNames.first(where: { $0.name == name.lowercased() }) else { throw .unknownType(name) }
    return found.kind
  }

  /// Adds a product of `kind` with id `id`, then applies `edits` to it. A subscription goes into
  /// the group `edits` names (`.group`; a new name makes the group), or the catalog's only group,
  /// at the level after the group's last.
  public mutating func add(_ kind: ProductKind, id: String, edits: [CatalogEdit] = []) throws(Failure) {
    guard !id.isEmpty, !id.contains(where: \.isWhitespace) else {
      throw .invalidValue(key: "id", value: id, hint: "a product id is not empty and has no spaces, such as com.example.coins")
    }
    guard !products().contains(where: { $0.id == id }) else { throw .duplicateProduct(id) }
    if kind != .autoRenewableSubscription, let edit = edits.first(where: \.needsSubscription) {
      throw .notASubscription(product: id, key: edit.key)
    }
    var copy = self
    let array: JSONPath
    var extra: [JSONText.Member] = []
    if kind == .autoRenewableSubscription {
      let named = edits.compactMap { if case .group(let name) = $0 { name } else { nil } }.last
      let groups = copy.groups()
      guard let name = named ?? (groups.count == 1 ? groups[0].id : nil) else { throw .groupNeeded(product: id, groups: groups.map(\.name)) }
      let group = try copy.groupPath(named: name)
      array = group.appending("subscriptions")
      let levels = (0..<copy.text.map.count(of: array)).compactMap { copy.text.text(at: array.appending($0).appending("groupNumber")).flatMap { Int(String(decoding: $0, as: UTF8.self)) } }
      extra = [
        .init("adHocOffers", .array([])), .init("codeOffers", .array([])),
        .init("groupNumber", .number(String((levels.max() ?? 0) + 1))),
        .init("introductoryOffer", .null),
        .init("recurringSubscriptionPeriod", .string("P1M")),
        .init("subscriptionGroupID", .string(copy.text.string(at: group.appending("id")) ?? name)),
        .init("winbackOffers", .array([])),
      ]
    } else {
      array = JSONPath.root.appending(kind == .nonRenewingSubscription ? "nonRenewingSubscriptions" : "products")
      if !copy.text.exists(array) { try copy.set(array, .array([]), template: Self.rootKeys) }
    }
    var members: [JSONText.Member] = [
      .init("displayPrice", .string("0.99")),
      .init("familyShareable", .bool(false)),
      .init("internalID", .string(copy.newInternalID())),
      .init("localizations", .array([.object([.init("description", .string("")), .init("displayName", .string("")), .init("locale", .string(copy.defaultLocale))])])),
      .init("productID", .string(id)),
      .init("referenceName", .string(id)),
      .init("type", .string(kind.catalogName)),
    ] + extra
    // An added product has the keys its siblings have (older formats lack some), in their order.
    let sibling = copy.siblingKeys(for: array)
    if !sibling.isEmpty { members = members.filter { sibling.contains($0.key) || Self.requiredKeys.contains($0.key) } }
    do { try copy.text.insertElement(.object(members), into: array) } catch { throw .unexpectedShape(error.path) }
    try copy.apply(edits.filter { if case .group = $0 { false } else { true } }, to: id)
    self = copy
  }

  /// Removes `product` (a group it leaves empty stays, as in Xcode).
  public mutating func remove(_ product: String) throws(Failure) {
    let path = try path(of: product)
    guard case .index(let index)? = path.components.last else { throw .unexpectedShape(path) }
    do { try text.removeElement(index, of: JSONPath(Array(path.components.dropLast()))) } catch { throw .unexpectedShape(error.path) }
  }

  /// Adds a copy of `product` as `newID` after the last product of its array, with new
  /// `internalID`s and its reference name marked as a copy.
  public mutating func duplicate(_ product: String, as newID: String) throws(Failure) {
    let path = try path(of: product)
    guard !products().contains(where: { $0.id == newID }) else { throw .duplicateProduct(newID) }
    guard let original = text.text(at: path) else { throw .unexpectedShape(path) }
    var copy = self
    let array = JSONPath(Array(path.components.dropLast()))
    do { try copy.text.insertElementText(original, into: array) } catch { throw .unexpectedShape(error.path) }
    let added = array.appending(copy.text.map.count(of: array) - 1)
    try copy.set(added.appending("productID"), .string(newID))
    let name = copy.text.string(at: added.appending("referenceName")) ?? product
    try copy.set(added.appending("referenceName"), .string(name + " copy"))
    let internalIDs = copy.text.map.members(named: "internalID", under: added).map(\.path)
    for internalPath in internalIDs { try copy.set(internalPath, .string(copy.newInternalID())) }
    self = copy
  }

  /// Renames the group `group` (by name or id).
  public mutating func renameGroup(_ group: String, to name: String) throws(Failure) {
    guard let found = groups().first(where: { $0.name == group || $0.id == group }) else {
      throw .invalidValue(key: "group", value: group, hint: "the catalog's groups are \(groups().map { "'\($0.name)'" }.joined(separator: ", "))")
    }
    try set(found.path.appending("name"), .string(name))
  }

  /// The path of the group named (or with id) `name`, made when there is none.
  mutating func groupPath(named name: String) throws(Failure) -> JSONPath {
    if let found = groups().first(where: { $0.name == name || $0.id == name }) { return found.path }
    let array = JSONPath.root.appending("subscriptionGroups")
    if !text.exists(array) { try set(array, .array([]), template: Self.rootKeys) }
    let group = JSONText.object([
      .init("id", .string(newInternalID())), .init("localizations", .array([])),
      .init("name", .string(name)), .init("subscriptions", .array([])),
    ])
    do { try text.insertElement(group, into: array) } catch { throw .unexpectedShape(error.path) }
    return array.appending(text.map.count(of: array) - 1)
  }

  /// Moves the subscription at `path` to the end of `group`, at the level after its last, with
  /// its bytes as they were (the two arrays are at the same depth).
  mutating func move(_ product: String, at path: JSONPath, to group: JSONPath) throws(Failure) {
    guard let original = text.text(at: path), case .index(let index)? = path.components.last else { throw .unexpectedShape(path) }
    let groupID = text.string(at: group.appending("id"))
    // Removing the element can shift the target group's index only if it comes later in the same array; it does not (groups are not inside groups).
    let array = group.appending("subscriptions")
    let levels = (0..<text.map.count(of: array)).compactMap { text.text(at: array.appending($0).appending("groupNumber")).flatMap { Int(String(decoding: $0, as: UTF8.self)) } }
    do {
      try text.removeElement(index, of: JSONPath(Array(path.components.dropLast())))
      try text.insertElementText(original, into: array)
    } catch { throw .unexpectedShape(error.path) }
    let moved = try self.path(of: product)
    if let groupID { try set(moved.appending("subscriptionGroupID"), .string(groupID)) }
    try set(moved.appending("groupNumber"), .number(String((levels.max() ?? 0) + 1)))
  }

  /// The keys of the first element of `array`, else of any product in the file (so a product added
  /// to an empty array still looks like the file's others), else none (Xcode's).
  func siblingKeys(for array: JSONPath) -> [String] {
    if text.map.count(of: array) > 0 { return text.map.keys(of: array.appending(0)) }
    guard array.components.last == .key("products") || array.components.last == .key("nonRenewingSubscriptions") else { return [] }
    return products().first.map { text.map.keys(of: $0.path) }.map { keys in keys.filter { !Self.subscriptionKeys.contains($0) } } ?? []
  }

  static let requiredKeys: Set<String> = [
    "displayPrice", "localizations", "productID", "referenceName", "type",
    "groupNumber", "recurringSubscriptionPeriod", "subscriptionGroupID",
  ]
  static let subscriptionKeys: Set<String> = [
    "adHocOffers", "codeOffers", "groupNumber", "introductoryOffer", "recurringSubscriptionPeriod",
    "subscriptionGroupID", "winbackOffers", "introductoryOffers", "billingPlans",
  ]
  /// The top-level keys in the order Xcode writes them.
  static let rootKeys = ["appPolicies", "identifier", "nonRenewingSubscriptions", "products", "settings", "subscriptionGroups", "version"]
}
