import Foundation

extension StoreMachine {
  /// Family Sharing (B72): makes `members` one family, organized by the first. Accounts are created
  /// when new; a single name (or none) leaves nobody in a family with it.
  mutating func setFamily(_ members: [String]) {
    guard members.count > 1, let organizer = members.first else {
      for name in members { change(name) { $0.family = nil } }
      return
    }
    for (name, account) in accounts.sorted(by: { $0.key < $1.key }) where account.family == organizer && !members.contains(name) {
      change(name) { $0.family = nil }
    }
    for name in members { change(name) { $0.family = organizer } }
  }

  private mutating func change(_ name: String, _ edit: (inout SandboxAccount) -> Void) {
    var account = accounts[name] ?? SandboxAccount(name: name)
    edit(&account)
    accounts[name] = account
    step.changes.append(.putAccount(account))
  }

  /// The other members of `account`'s family.
  func familyMembers(of account: String) -> [String] {
    guard let family = accounts[account]?.family else { return [] }
    return accounts.values.filter { $0.family == family && $0.name != account }.map(\.name).sorted()
  }

  /// A purchase of a family-shareable non-consumable reaches every other member of the purchaser's
  /// family as their own transaction (`inAppOwnershipType` FAMILY_SHARED), unfinished, so their
  /// app gets it at its next launch. Subscriptions are not shared (yet): see DECISIONS §5.
  mutating func shareWithFamily(_ purchase: PaymentTransaction, product: Product) throws(EngineError) {
    guard product.familyShareable, product.kind == .nonConsumable, purchase.familySharedBy == nil,
      purchase.originalID == purchase.id
    else { return }
    let last = lastTransactionID  // `last` stays the purchaser's transaction
    defer { lastTransactionID = last }
    for member in familyMembers(of: purchase.account) where ownership(of: product.id, account: member) == nil {
      var copy = PaymentTransaction(
        id: try makeTransactionID(), account: member, productID: product.id, productKind: product.kind,
        state: .purchased, purchaseDate: now, price: purchase.price, currency: purchase.currency,
        storefront: purchase.storefront)
      copy.familySharedBy = purchase.account
      try put(copy)
      // Apple: ONE_TIME_CHARGE also when "a family member gains access to a non-consumable".
      notify(.oneTimeCharge, about: copy.id)
    }
  }

  /// A refund of the purchaser's transaction revokes the family's copies (`FAMILY_REVOKE`).
  mutating func revokeFamilyCopies(of refunded: PaymentTransaction) throws(EngineError) {
    guard refunded.familySharedBy == nil, refunded.productKind == .nonConsumable else { return }
    let copies = transactions.values.filter {
      $0.familySharedBy == refunded.account && $0.productID == refunded.productID && $0.revocationDate == nil
    }.sorted { $0.id < $1.id }
    let last = lastTransactionID
    defer { lastTransactionID = last }
    for var copy in copies {
      copy.revocationDate = now
      copy.revocationReason = refunded.revocationReason
      copy.signedTransaction = nil
      step.emit(.transactionRevoked(try put(copy)))
      notify(.revoke, about: copy.id)
    }
  }
}
