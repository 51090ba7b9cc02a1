import StoreEngine

/// Customers' histories as last read, in last-modified order, kept current through the ledger's
/// change feed (``StoreEngine/LedgerStore/changes(since:)``), so a page of a 10,000-transaction history
/// costs about what a page of a 100-transaction one does: a feed check, a binary search, 21 rows.
///
/// Rows a commit wrote come through the feed and replace or join the cached ones. A deletion does not
/// (the feed reports only rows written), so the caller re-reads a page's rows by id before answering
/// and ``HistoryCache/forget(_:)``s a history whose page no longer matches the ledger. Commits the feed
/// reports nothing for (a clock or account change, frequent in a running TUI) keep the cache. Safe for
/// concurrent callers: the state is behind one lock.
final class HistoryCache: Sendable {
  private struct Entry {
    /// The account's stored rows, oldest first, and where each is.
    var rows: [PaymentTransaction]
    var index: [PaymentTransaction.ID: Int]
    /// The served rows by (`signedDate`, id), made on first use after a change.
    var sorted: [SignedTransaction]?
  }

  private struct State {
    var position: UInt64?
    var entries: [String: Entry] = [:]
  }

  private let state = Locked(State())

  /// `account`'s served rows (``LedgerReader/history(of:)``) ascending by (`signedDate`, id).
  func sortedHistory(of account: String, reader: LedgerReader) throws(APIError) -> [SignedTransaction] {
    do {
      return try state.withLock { (state: inout State) throws(APIError) -> [SignedTransaction] in
        try Self.refresh(&state, reader: reader)
        var entry: Entry
        if let cached = state.entries[account] {
          entry = cached
        } else {
          let rows = try reader.rows(of: account)
          entry = Entry(rows: rows, index: Dictionary(rows.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { _, last in last }))
        }
        let sorted = entry.sorted ?? Self.byLastModified(reader.served(entry.rows))
        entry.sorted = sorted
        state.entries[account] = entry
        return sorted
      }
    } catch let error as APIError {
      throw error
    } catch {
      throw .generalInternal
    }
  }

  /// Drops `account`'s history: the next request reads it afresh.
  func forget(_ account: String) {
    state.withLock { $0.entries[account] = nil }
  }

  /// `rows` ascending by (`signedDate`, id): Apple's last-modified order.
  static func byLastModified(_ rows: [SignedTransaction]) -> [SignedTransaction] {
    rows.sorted { ($0.signedDate, $0.row.id.rawValue) < ($1.signedDate, $1.row.id.rawValue) }
  }

  /// Applies what was committed since the last request. The first call only notes the feed's
  /// position, before any history is read, so nothing committed in between is missed.
  private static func refresh(_ state: inout State, reader: LedgerReader) throws(APIError) {
    guard let position = state.position else {
      state.position = try reader.position()
      return
    }
    let changes = try reader.changes(since: position)
    // A PostgreSQL feed may hand new rows out at the same position (its snapshot's xmin held back).
    guard changes.position != position || !changes.transactions.isEmpty else { return }
    state.position = changes.position
    guard changes.position >= position else {
      // The feed went back: another ledger file, or one restored from a copy.
      state.entries.removeAll()
      return
    }
    for row in changes.transactions {
      guard var entry = state.entries[row.account] else { continue }
      if let at = entry.index[row.id] {
        entry.rows[at] = row
      } else {
        entry.index[row.id] = entry.rows.count
        entry.rows.append(row)
      }
      entry.sorted = nil
      state.entries[row.account] = entry
    }
  }
}
