extension SQLiteLedgerStore {
  /// A batch's notes of its transactions in `chains` (``LedgerSchema/noteChain``), run only where
  /// they change something.
  ///
  /// A note creates its chain (first row) or raises the chain's current row to its own when it is a
  /// current period. An advance of a day at every-2s puts 43,200 renewals of one chain, each a new row
  /// and a current period: only the chain's first note and its last one change the chain, and
  /// running the 43,198 between was a statement per renewal. Within a run of transaction puts, the
  /// first note of each chain runs at once; a later note that is not a current period changes
  /// nothing (its chain exists) and is dropped; a current-period note waits, and is dropped when a
  /// newly inserted row of the same chain comes (its `seq` is higher than every existing row's).
  /// Every other change (clears, deletes, records, finishes) runs the waiting notes first.
  struct ChainNotes {
    struct Note {
      var original: Int64
      var id: Int64
      /// The row is a chain's current period (purchased, with an expiry).
      var current: Bool
    }

    private var noted: Set<Int64> = []
    private var waiting: [Int64: Note] = [:]

    /// `note` of a row its upsert just wrote; `inserted` when the upsert made a new row.
    mutating func add(_ note: Note, inserted: Bool, with statements: Statements) throws(SQLiteFailure) {
      if noted.insert(note.original).inserted {
        try Self.run(note, with: statements)
        return
      }
      guard note.current else { return }
      // An updated row keeps its old `seq`, which may be lower than the waiting note's.
      if !inserted, let earlier = waiting[note.original] { try Self.run(earlier, with: statements) }
      waiting[note.original] = note
    }

    /// Runs the waiting notes; the next note of any chain runs at once again.
    mutating func flush(with statements: Statements) throws(SQLiteFailure) {
      for note in waiting.values { try Self.run(note, with: statements) }
      waiting = [:]
      noted = []
    }

    private static func run(_ note: Note, with statements: Statements) throws(SQLiteFailure) {
      let chain = statements.noteChain
      try chain.bind(note.original, at: 1)
      try chain.bind(note.id, at: 2)
      try chain.bind(Int64(note.current ? 1 : 0), at: 3)
      try chain.run()
    }
  }
}
