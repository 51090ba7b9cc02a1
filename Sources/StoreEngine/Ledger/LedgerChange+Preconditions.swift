extension LedgerChange {
  /// The key and expected value of an ``expectDeviceValue(key:value:)``, nil for every other change.
  public var deviceValueExpectation: (key: String, value: String?)? {
    if case .expectDeviceValue(let key, let value) = self { (key, value) } else { nil }
  }

  /// Every ``expectDeviceValue(key:value:)`` of `changes`, in order (usually none).
  public static func deviceValueExpectations(in changes: [LedgerChange]) -> [(key: String, value: String?)] {
    changes.compactMap(\.deviceValueExpectation)
  }

  /// Whether `changes` holds any precondition (``expectOwner(_:session:)``,
  /// ``expectDeviceValue(key:value:)``).
  public static func hasPreconditions(_ changes: [LedgerChange]) -> Bool {
    changes.contains { $0.ownerExpectation != nil || $0.deviceValueExpectation != nil }
  }

  /// The error of the first device-value expectation that `stored` (the values as they are before
  /// the batch, read inside the write transaction; an empty or missing one is absent) does not meet.
  public static func violation(
    of expectations: [(key: String, value: String?)], stored: [String: String], path: String
  ) -> LedgerError? {
    for expectation in expectations {
      let current = stored[expectation.key].flatMap { $0.isEmpty ? nil : $0 }
      if current != expectation.value.flatMap({ $0.isEmpty ? nil : $0 }) {
        return .deviceValueChanged(path: path, key: expectation.key)
      }
    }
    return nil
  }
}

extension LedgerChange {
  /// The transaction and session of an ``expectOwner(_:session:)``, nil for a write.
  public var ownerExpectation: (id: PaymentTransaction.ID, session: String)? {
    if case .expectOwner(let id, let session) = self { (id, session) } else { nil }
  }

  /// Every ``expectOwner(_:session:)`` of `changes`, in order (usually none).
  public static func ownerExpectations(in changes: [LedgerChange]) -> [(id: PaymentTransaction.ID, session: String)] {
    changes.compactMap(\.ownerExpectation)
  }

  /// The error of the first expectation that `stored` (the rows as they are before the batch, in
  /// any order; a missing row is a deleted one) does not meet, or nil when all hold. Every store
  /// calls it with the rows read inside its write transaction, so that the check and the writes are
  /// one atomic unit.
  public static func violation(
    of expectations: [(id: PaymentTransaction.ID, session: String)], stored: [PaymentTransaction], path: String
  ) -> LedgerError? {
    let byID = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for expectation in expectations {
      let row = byID[expectation.id]
      guard let row, row.state == .purchasing, !row.isFinished, row.ownerSession == expectation.session else {
        let owner = row.flatMap { $0.state == .purchasing && !$0.isFinished ? $0.ownerSession : nil }
        return .takenOver(path: path, transaction: expectation.id, owner: owner)
      }
    }
    return nil
  }
}

extension LedgerChange {
  /// The transaction a ``putTransaction(_:)`` or ``finishTransaction(_:)`` stores, as it is after
  /// the change; nil for every other change.
  public var storedTransaction: PaymentTransaction? {
    switch self {
    case .putTransaction(let transaction), .finishTransaction(let transaction): transaction
    default: nil
    }
  }
}
