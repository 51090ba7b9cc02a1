/// Transaction ids a machine may hand out: blocks reserved in the ledger (so that processes that
/// share a data directory never collide), or, for a machine alone with its ids, a plain counter.
struct TransactionIDPool: Sendable, Equatable {
  private var blocks: [Range<UInt64>] = []
  /// The lowest id worth asking the ledger for (past every id seen).
  private(set) var floor: UInt64
  private let reserved: Bool
  /// Ids taken since the last ``startStep()``, so the shell knows how many more to reserve.
  private(set) var drawnInStep = 0

  init(next: UInt64, reserved: Bool) {
    floor = next
    self.reserved = reserved
  }

  mutating func take() -> UInt64? {
    drawnInStep += 1
    if !reserved {
      defer { floor += 1 }
      return floor
    }
    while let first = blocks.first, first.isEmpty { blocks.removeFirst() }
    guard let first = blocks.first else { return nil }
    let id = first.lowerBound
    blocks[0] = (id + 1)..<first.upperBound
    floor = max(floor, id + 1)
    return id
  }

  mutating func startStep() { drawnInStep = 0 }

  /// Ids left before the machine must ask for more (unlimited when it counts on its own).
  var available: Int {
    reserved ? blocks.reduce(0) { $0 + $1.count } : Int.max
  }

  mutating func add(_ range: Range<UInt64>) {
    blocks.append(range)
    floor = max(floor, range.upperBound)
  }

  /// Ids at or below `id` are in use (seen in the ledger).
  mutating func skip(past id: UInt64) {
    if id >= floor { floor = id + 1 }
  }

  /// A relaunch starts a new block, as a new process would.
  mutating func dropReservation() { blocks = [] }
}
