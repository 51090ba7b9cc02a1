import Foundation

extension LedgerStore {
  /// The default reads newest-first pages out of ascending ones, so it holds a page, never the history.
  ///
  /// Last-modified order: the newest change's millisecond is found by bisection (about 60 one-row
  /// pages), then windows of time before the cursor, doubling from one second, are read forward
  /// until they hold a page; a burst of rows in one window is read through, but only a page's worth
  /// is kept. Insertion order falls back to the reference over the whole history, with the cursors
  /// of the default ``historyPage(account:order:after:limit:)``: an adapter with its own positions
  /// implements both.
  public func historyPage(
    account: String?, order: HistoryOrder, before cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage {
    switch order {
    case .insertion:
      let all: [PaymentTransaction]
      if let account { all = try history(account: account) } else { all = try allTransactions() }
      return Self.page(of: all, order: .insertion, before: cursor, limit: limit)
    case .lastModified:
      return try BackwardReader(ledger: self, account: account).page(before: cursor, limit: max(limit, 1))
    }
  }

  /// `all` (in insertion order) cut to the newest-first page before `cursor`: the reference.
  public static func page(
    of all: [PaymentTransaction], order: HistoryOrder, before cursor: HistoryCursor?, limit: Int
  ) -> HistoryPage {
    let limit = max(limit, 1)
    switch order {
    case .insertion:
      var end = all.count
      if case .insertion(let position) = cursor { end = min(Int(clamping: position), all.count) }
      guard end > 0 else { return HistoryPage(rows: [], next: nil) }
      let start = max(end - limit, 0)
      return HistoryPage(rows: all[start..<end].reversed(), next: start > 0 ? .insertion(UInt64(start)) : nil)
    case .lastModified:
      var keyed = all.map { (key: ($0.lastModifiedMilliseconds, $0.id.rawValue), row: $0) }
      keyed.sort { $0.key > $1.key }
      if case .lastModified(let milliseconds, let id) = cursor {
        keyed.removeAll { $0.key >= (milliseconds, id.rawValue) }
      }
      let rows = keyed.prefix(limit).map(\.row)
      guard keyed.count > limit, let last = rows.last else { return HistoryPage(rows: rows, next: nil) }
      return HistoryPage(rows: rows, next: .lastModified(milliseconds: last.lastModifiedMilliseconds, id: last.id))
    }
  }
}

/// Newest-first last-modified pages over a ledger that pages forward only.
private struct BackwardReader<Ledger: LedgerStore> {
  let ledger: Ledger
  let account: String?
  /// Rows read forward per ledger page while a window is read.
  static var chunk: Int { 64 }

  func page(before cursor: HistoryCursor?, limit: Int) throws(LedgerError) -> HistoryPage {
    guard let oldest = try first(atOrAfter: nil) else { return HistoryPage(rows: [], next: nil) }
    let floor = oldest.lastModifiedMilliseconds
    let bound: (Int64, UInt64)
    if case .lastModified(let milliseconds, let id) = cursor {
      bound = (milliseconds, id.rawValue)
    } else {
      bound = (try newestMilliseconds(atOrAfter: floor), .max)
    }
    // One more than a page, to know whether anything is left before it.
    let wanted = limit + 1
    var found: [PaymentTransaction] = []
    var high = bound.0
    var span: Int64 = 1_000
    while found.count < wanted, high >= floor {
      let low = max(floor, high.subtractingReportingOverflow(span - 1).overflow ? floor : high - (span - 1))
      let window = try newest(wanted - found.count, from: low, through: high, below: bound)
      found.append(contentsOf: window.reversed())
      guard low > floor else { break }
      high = low - 1
      span = span > Int64.max / 2 ? Int64.max : span * 2
    }
    let rows = Array(found.prefix(limit))
    guard found.count > limit, let last = rows.last else { return HistoryPage(rows: rows, next: nil) }
    return HistoryPage(rows: rows, next: .lastModified(milliseconds: last.lastModifiedMilliseconds, id: last.id))
  }

  /// The first row whose last-modified millisecond is `milliseconds` or later (nil: the first row).
  /// Id 0 is no transaction's, so "after (ms, 0)" is "from ms on" without an id past the end.
  private func first(atOrAfter milliseconds: Int64?) throws(LedgerError) -> PaymentTransaction? {
    let cursor = milliseconds.map { HistoryCursor.lastModified(milliseconds: $0, id: PaymentTransaction.ID(0)) }
    return try ledger.historyPage(account: account, order: .lastModified, after: cursor, limit: 1).rows.first
  }

  /// The newest row's last-modified millisecond, given that a row exists at `floor` or later.
  private func newestMilliseconds(atOrAfter floor: Int64) throws(LedgerError) -> Int64 {
    var low = floor
    var high = Int64.max
    while low < high {
      let middle = low + (high - low) / 2 + 1
      if let row = try first(atOrAfter: middle) { low = row.lastModifiedMilliseconds } else { high = middle - 1 }
    }
    return low
  }

  /// The newest `count` rows (oldest first) modified in `low...high` ms and before `bound`.
  private func newest(
    _ count: Int, from low: Int64, through high: Int64, below bound: (Int64, UInt64)
  ) throws(LedgerError) -> [PaymentTransaction] {
    var kept: [PaymentTransaction] = []
    var cursor: HistoryCursor? = .lastModified(milliseconds: low, id: PaymentTransaction.ID(0))
    reading: while let after = cursor {
      let page = try ledger.historyPage(account: account, order: .lastModified, after: after, limit: Self.chunk)
      for row in page.rows {
        let key = (row.lastModifiedMilliseconds, row.id.rawValue)
        guard key.0 <= high, key < bound else { break reading }
        kept.append(row)
        // A burst in one window is read through holding at most two pages' worth.
        if kept.count >= 2 * count + Self.chunk { kept.removeFirst(kept.count - count) }
      }
      cursor = page.next
    }
    return Array(kept.suffix(count))
  }
}
