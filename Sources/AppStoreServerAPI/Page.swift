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

extension Page {
  /// The page after `position` of `sorted` (ascending by `signedDate`, then id) that `admits` keeps:
  /// a binary search for the position, then at most `size + 1` kept rows walked in the token's order.
  init(sorted: [SignedTransaction], after position: PageToken, admits: (SignedTransaction) -> Bool) {
    let pivot = (position.date, position.id)
    func key(_ index: Int) -> (Int64, UInt64) { (sorted[index].signedDate, sorted[index].row.id.rawValue) }
    /// The first index whose key is past the pivot (`strictly`) or at or past it.
    func boundary(strictly: Bool) -> Int {
      var low = 0
      var high = sorted.count
      while low < high {
        let middle = (low + high) / 2
        if strictly ? key(middle) > pivot : key(middle) >= pivot { high = middle } else { low = middle + 1 }
      }
      return low
    }
    let order: AnySequence<Int> =
      position.descending
      ? AnySequence(stride(from: boundary(strictly: false) - 1, through: 0, by: -1))
      : AnySequence(boundary(strictly: true)..<sorted.count)
    var items: [SignedTransaction] = []
    var hasMore = false
    for index in order where admits(sorted[index]) {
      guard items.count < Self.size else {
        hasMore = true
        break
      }
      items.append(sorted[index])
    }
    var next = position
    if let last = items.last {
      next.date = last.signedDate
      next.id = last.row.id.rawValue
    }
    self.items = items
    self.next = next
    self.hasMore = hasMore
  }
}
