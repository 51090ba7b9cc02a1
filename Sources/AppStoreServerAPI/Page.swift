/// One page of at most 20 items after a position, and the position to continue from.
struct Page {
  static let size = 20

  var items: [SignedTransaction]
  var next: PageToken
  var hasMore: Bool

  /// `items` (up to one past a page, in the token's order) as the page after `position`, keyed by
  /// `key` for the next token.
  init(_ items: [SignedTransaction], after position: PageToken, key: (SignedTransaction) -> Int64) {
    self.items = Array(items.prefix(Self.size))
    hasMore = items.count > Self.size
    var next = position
    if let last = self.items.last {
      next.date = key(last)
      next.id = last.row.id.rawValue
    }
    self.next = next
  }

  /// The history page of `account` after `position` that `admits` keeps, read from the ledger a
  /// page at a time until it is full (and one more row says whether more follow) or the history ends.
  init(
    history account: String, reader: LedgerReader, after position: PageToken, admits: (SignedTransaction) -> Bool
  ) throws(APIError) {
    var items: [SignedTransaction] = []
    try reader.walkHistory(of: account, from: position) { row in
      if admits(row) { items.append(row) }
      return items.count <= Self.size
    }
    self.init(items, after: position, key: \.signedDate)
  }
}
