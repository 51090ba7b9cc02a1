/// One page of at most 20 items after a position, and the position to continue from.
struct Page {
  static let size = 20

  var items: [SignedTransaction]
  var next: PageToken
  var hasMore: Bool

  /// Sorts `all` by `key` in the token's order and takes the page after `position`.
  init(_ all: [SignedTransaction], after position: PageToken, key: (SignedTransaction) -> Int64) {
    let rest = all.map { (key($0), $0) }
      .filter { position.precedes(date: $0.0, id: $0.1.row.id.rawValue) }
      .sorted { lhs, rhs in
        let left = (lhs.0, lhs.1.row.id.rawValue)
        let right = (rhs.0, rhs.1.row.id.rawValue)
        return position.descending ? left > right : left < right
      }
    let page = rest.prefix(Self.size)
    items = page.map(\.1)
    hasMore = rest.count > Self.size
    var next = position
    if let last = page.last {
      next.date = last.0
      next.id = last.1.row.id.rawValue
    }
    self.next = next
  }
}
