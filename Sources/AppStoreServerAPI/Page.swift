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

/// The first `capacity` of the items offered, in `areInIncreasingOrder`, held in bounded memory
/// however many are offered (a history's refunds, read row by row).
struct FirstItems<Item> {
  let capacity: Int
  let areInIncreasingOrder: (Item, Item) -> Bool
  private var held: [Item] = []

  init(_ capacity: Int, by areInIncreasingOrder: @escaping (Item, Item) -> Bool) {
    self.capacity = capacity
    self.areInIncreasingOrder = areInIncreasingOrder
  }

  mutating func offer(_ item: Item) {
    held.append(item)
    if held.count >= 2 * capacity + 16 { trim() }
  }

  /// The items kept, in order.
  var items: [Item] {
    mutating get {
      trim()
      return held
    }
  }

  private mutating func trim() {
    held.sort(by: areInIncreasingOrder)
    if held.count > capacity { held.removeLast(held.count - capacity) }
  }
}
