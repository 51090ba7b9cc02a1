/// What a reader of the change feed had seen when it was handed a position: the database snapshot
/// of that read, so the next read returns exactly the commits that snapshot did not see.
///
/// Rows are stamped with the writing transaction's id (`pg_current_xact_id()`). Transaction ids are
/// handed out when a transaction first writes, not when it commits, so "every stamp above N" is no
/// position: a smaller id may still be in flight. A snapshot is: the commits it sees are closed under
/// "committed before", and `pg_visible_in_snapshot` tells for any stamp whether it was seen.
struct PostgreSQLFeedMark: Equatable {
  /// The position handed out: the largest stamp the snapshot saw, at least the position it followed.
  /// A key to this mark, not a bound: a smaller stamp may still have been in flight.
  var position: UInt64
  /// Rows stamped below this were all seen (the snapshot's xmin); the index prefilter.
  var floor: UInt64
  /// The snapshot as `pg_snapshot` text (`xmin:xmax:xip,…`).
  var snapshot: String

  /// The mark a position stands for when this store did not hand it out (another store's, or one
  /// kept from an earlier run): every transaction below it seen, none above. A commit below it that
  /// was still in flight then is missed, so callers start from ``PostgreSQLLedgerStore/load()``.
  static func assumed(_ position: UInt64) -> PostgreSQLFeedMark {
    PostgreSQLFeedMark(position: position, floor: position, snapshot: "\(position):\(position):")
  }
}
