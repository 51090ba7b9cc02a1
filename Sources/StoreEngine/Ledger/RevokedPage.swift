import Foundation

/// A revoked transaction's place in revocation order: its ``PaymentTransaction/revocationDate`` in
/// ms (as signed), then its id. Get Refund History's order, which no other order of the ledger keeps.
public struct RevocationKey: Sendable, Hashable, Codable, Comparable {
  public var milliseconds: Int64
  public var id: PaymentTransaction.ID

  public init(milliseconds: Int64, id: PaymentTransaction.ID) {
    self.milliseconds = milliseconds
    self.id = id
  }

  /// The key of `row`, nil when it is not revoked.
  public init?(_ row: PaymentTransaction) {
    guard let revoked = row.revocationDate else { return nil }
    self.init(milliseconds: SignedPayloads.milliseconds(revoked), id: row.id)
  }

  public static func < (lhs: RevocationKey, rhs: RevocationKey) -> Bool {
    (lhs.milliseconds, lhs.id.rawValue) < (rhs.milliseconds, rhs.id.rawValue)
  }
}

/// One page of an account's revoked transactions in revocation order, and where the next one starts
/// (nil: this was the last).
public struct RevokedPage: Sendable, Equatable {
  public var rows: [PaymentTransaction]
  public var next: RevocationKey?

  public init(rows: [PaymentTransaction], next: RevocationKey?) {
    self.rows = rows
    self.next = next
  }
}

extension LedgerStore {
  /// The default walks the whole history a ledger page at a time, keeping at most two pages of
  /// revoked rows: bounded memory, but time linear in the history. A ledger holding long histories
  /// answers it from an index on (account, revocation ms, id).
  public func revokedPage(account: String, after cursor: RevocationKey?, limit: Int) throws(LedgerError) -> RevokedPage {
    try revokedPage(account: account, descending: false, from: cursor, limit: limit)
  }

  /// The default of the newest-first page, as ``revokedPage(account:after:limit:)``'s.
  public func revokedPage(account: String, before cursor: RevocationKey?, limit: Int) throws(LedgerError) -> RevokedPage {
    try revokedPage(account: account, descending: true, from: cursor, limit: limit)
  }

  private func revokedPage(
    account: String, descending: Bool, from cursor: RevocationKey?, limit: Int
  ) throws(LedgerError) -> RevokedPage {
    let limit = max(limit, 1)
    let inOrder: (RevocationKey, RevocationKey) -> Bool = descending ? { $0 > $1 } : { $0 < $1 }
    var kept: [(key: RevocationKey, row: PaymentTransaction)] = []
    func trim() {
      kept.sort { inOrder($0.key, $1.key) }
      if kept.count > limit + 1 { kept.removeLast(kept.count - limit - 1) }
    }
    var position: HistoryCursor?
    repeat {
      let page = try historyPage(account: account, order: .insertion, after: position, limit: 256)
      for row in page.rows {
        guard let key = RevocationKey(row), cursor.map({ inOrder($0, key) }) ?? true else { continue }
        kept.append((key, row))
        if kept.count > 2 * (limit + 1) + 64 { trim() }
      }
      position = page.next
    } while position != nil
    trim()
    return Self.revokedPage(kept.map(\.row), limit: limit)
  }

  /// The revoked rows of `all` (one account's history) cut to the page after (or, `descending`,
  /// before) `cursor`: the reference the adapters are tested against.
  public static func revokedPage(
    of all: [PaymentTransaction], descending: Bool, from cursor: RevocationKey?, limit: Int
  ) -> RevokedPage {
    var keyed = all.compactMap { row in RevocationKey(row).map { (key: $0, row: row) } }
    keyed.sort { descending ? $0.key > $1.key : $0.key < $1.key }
    if let cursor { keyed.removeAll { descending ? $0.key >= cursor : $0.key <= cursor } }
    return revokedPage(Array(keyed.prefix(max(limit, 1) + 1).map(\.row)), limit: max(limit, 1))
  }

  /// `rows` (in page order, at most one past `limit`) as a page.
  private static func revokedPage(_ rows: [PaymentTransaction], limit: Int) -> RevokedPage {
    let page = Array(rows.prefix(limit))
    guard rows.count > limit, let last = page.last else { return RevokedPage(rows: page, next: nil) }
    return RevokedPage(rows: page, next: RevocationKey(last))
  }
}
