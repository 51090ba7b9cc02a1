import Foundation
import StoreEngine

/// The query of Get Transaction History: every filter Apple documents, checked as Apple names its errors.
struct HistoryFilter {
  var startDate: Int64?
  var endDate: Int64?
  var productIDs: Set<String> = []
  var productKinds: Set<ProductKind> = []
  var groups: Set<String> = []
  var familyShared: Bool?
  var revoked: Bool?
  var descending = false

  init(_ query: QueryParameters, version2: Bool) throws(APIError) {
    startDate = try query.single("startDate", invalid: .invalidStartDate).map { (text) throws(APIError) in
      try Self.milliseconds(text, invalid: .invalidStartDate)
    }
    endDate = try query.single("endDate", invalid: .invalidEndDate).map { (text) throws(APIError) in
      try Self.milliseconds(text, invalid: .invalidEndDate)
    }
    if let startDate, let endDate, startDate > endDate { throw .startDateAfterEndDate }
    for id in query.values("productId") {
      guard !id.isEmpty else { throw .invalidProductID }
      productIDs.insert(id)
    }
    for type in query.values("productType") {
      guard let kind = Self.productTypes[type] else { throw .invalidProductType }
      productKinds.insert(kind)
    }
    for group in query.values("subscriptionGroupIdentifier") {
      guard !group.isEmpty else { throw .invalidSubscriptionGroupIdentifier }
      groups.insert(group)
    }
    switch try query.single("inAppOwnershipType", invalid: .invalidInAppOwnershipType) {
    case nil: familyShared = nil
    case "FAMILY_SHARED": familyShared = true
    case "PURCHASED": familyShared = false
    default: throw .invalidInAppOwnershipType
    }
    if let text = try query.single("revoked", invalid: .invalidRevoked) {
      revoked = try Self.bool(text, invalid: .invalidRevoked)
    }
    if version2, let text = try query.single("excludeRevoked", invalid: .invalidExcludeRevoked),
      try Self.bool(text, invalid: .invalidExcludeRevoked)
    {
      if revoked == true { throw .invalidExcludeRevoked }
      revoked = false
    }
    switch try query.single("sort", invalid: .invalidSort) {
    case nil, "ASCENDING": descending = false
    case "DESCENDING": descending = true
    default: throw .invalidSort
    }
  }

  /// Whether `transaction` passes every filter given.
  func admits(_ transaction: SignedTransaction) -> Bool {
    let row = transaction.row
    let purchased = SignedPayloads.milliseconds(row.purchaseDate)
    if let startDate, purchased < startDate { return false }
    if let endDate, purchased >= endDate { return false }
    if !productIDs.isEmpty, !productIDs.contains(row.productID.rawValue) { return false }
    if !productKinds.isEmpty, !productKinds.contains(row.productKind) { return false }
    if !groups.isEmpty, !groups.contains(row.subscriptionGroupID ?? "") { return false }
    if let familyShared, familyShared != (row.familySharedBy != nil) { return false }
    if let revoked, revoked != (row.revocationDate != nil) { return false }
    return true
  }

  private static let productTypes: [String: ProductKind] = [
    "AUTO_RENEWABLE": .autoRenewableSubscription, "NON_RENEWABLE": .nonRenewingSubscription,
    "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable,
  ]

  /// A non-negative integer of milliseconds (Swift's client may write `…000.0`: accepted when whole).
  static func milliseconds(_ text: String, invalid error: APIError) throws(APIError) -> Int64 {
    if let value = Int64(text), value >= 0, text.first != "+" { return value }
    if text.hasSuffix(".0"), let value = Int64(text.dropLast(2)), value >= 0, text.first != "+" { return value }
    throw error
  }

  /// `true`/`false` in any case: Python's client sends `True`/`False`.
  static func bool(_ text: String, invalid error: APIError) throws(APIError) -> Bool {
    switch text.lowercased() {
    case "true": return true
    case "false": return false
    default: throw error
    }
  }
}
