import StoreEngine

/// The Transactions pane's rows: a window of the signed-in account's history as the ledger has it
/// (insertion order), read a few pages at a time around the pane's scroll position, and the
/// history's length. The state never holds the whole history: scrolling reads the pages it reaches.
public struct HistoryWindow: Equatable, Sendable {
  /// Where ``rows`` start in the history.
  public var offset: Int
  /// The rows asked for (fewer at the history's end).
  public var limit: Int
  public var rows: [PaymentTransaction]
  /// How many transactions the history has.
  public var total: Int
  /// A commit changed the account's transactions since this was read: the runtime reads it again.
  public var isStale: Bool

  public init(offset: Int = 0, limit: Int = 0, rows: [PaymentTransaction] = [], total: Int = 0, isStale: Bool = false) {
    self.offset = offset
    self.limit = limit
    self.rows = rows
    self.total = total
    self.isStale = isStale
  }

  /// Rows per page read.
  public static let pageSize = 64
  /// The rows a window around `firstRow` holds: whole pages, the one scrolled to and one either
  /// side (at the top, the first two pages).
  public static func range(around firstRow: Int) -> Range<Int> {
    let page = max(0, firstRow) / pageSize
    return (max(0, page - 1) * pageSize)..<((page + 2) * pageSize)
  }

  /// The range this window was read for.
  public var range: Range<Int> { offset..<(offset + limit) }

  /// The transaction at `index` of the history, when the window holds it.
  public func row(at index: Int) -> PaymentTransaction? {
    let position = index - offset
    return rows.indices.contains(position) ? rows[position] : nil
  }

  /// Reads the window around `firstRow` of `account`'s history from `ledger`: one count and one
  /// page read, whatever the history's length.
  public static func read(
    account: String?, around firstRow: Int, from ledger: any LedgerStore
  ) throws(LedgerError) -> HistoryWindow {
    guard let account else { return HistoryWindow() }
    let range = range(around: firstRow)
    let total = try ledger.transactionCount(account: account)
    let rows = try ledger.historyRows(account: account, order: .insertion, offset: range.lowerBound, limit: range.count)
    return HistoryWindow(offset: range.lowerBound, limit: range.count, rows: rows, total: total)
  }
}
