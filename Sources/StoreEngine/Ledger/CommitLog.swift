import Foundation

/// What one committed batch changed, as the ledger's commit log stores it (DECISIONS §41).
///
/// The log names what changed; the content of a row lives once, in its table, written in the same
/// database transaction. A reader turns entries back into ``LedgerChange``s with the rows as they
/// are in the same read (``CommitLog/materialize(_:rows:)``). Every entry is commutative with the
/// entries of commits that did not see it (a put names a row and reads it as it is now; a removal
/// names the exact ids it removed), so PostgreSQL's overlapping commits, which have no single
/// commit order, give every reader the same present.
public enum CommitLogEntry: Sendable, Equatable, Hashable {
  /// A transaction was put or finished.
  case transaction(PaymentTransaction.ID)
  /// These transactions were removed (a deleted transaction, or a cleared history's rows).
  case removedTransactions([PaymentTransaction.ID])
  case account(String)
  case subscription(PaymentTransaction.ID)
  case removedSubscription(PaymentTransaction.ID)
  case askToBuyRequest(PaymentTransaction.ID)
  case currentAccount
  case clock
  case notificationURL(environment: String)
  case deviceValue(key: String)
  case massExtension(productID: Product.ID, requestID: String)
}

/// The one encoder of the commit log, shared by the SQLite and PostgreSQL ledgers.
public enum CommitLog {
  /// The entries for `changes`. `removedByClearing(account)` answers the ids a clear-history change
  /// of that account removes (the store reads them in the same transaction, before it deletes).
  /// Outbox notifications and preconditions are not log entries: the outbox is its own queue.
  public static func entries(
    for changes: [LedgerChange], removedByClearing: (String) throws -> [PaymentTransaction.ID]
  ) rethrows -> [CommitLogEntry] {
    var entries: [CommitLogEntry] = []
    var seen: Set<CommitLogEntry> = []
    func add(_ entry: CommitLogEntry) { if seen.insert(entry).inserted { entries.append(entry) } }
    for change in changes {
      switch change {
      case .putTransaction(let transaction), .finishTransaction(let transaction): add(.transaction(transaction.id))
      case .putAccount(let account): add(.account(account.name))
      case .clearHistory(let account):
        let removed = try removedByClearing(account)
        if !removed.isEmpty { add(.removedTransactions(removed)) }
      case .putSubscription(let record): add(.subscription(record.originalID))
      case .removeSubscription(let id): add(.removedSubscription(id))
      case .setCurrentAccount: add(.currentAccount)
      case .setClock: add(.clock)
      case .putAskToBuyRequest(let request): add(.askToBuyRequest(request.id))
      case .deleteTransaction(let id): add(.removedTransactions([id]))
      case .putMassExtension(let request): add(.massExtension(productID: request.productID, requestID: request.requestID))
      case .setNotificationURL(let environment, _): add(.notificationURL(environment: environment))
      case .setDeviceValue(let key, _): add(.deviceValue(key: key))
      case .putNotification, .expectOwner, .expectDeviceValue: break
      }
    }
    return entries
  }

  /// `entries` as the bytes a log row stores: a JSON array of `[kind, value…]` arrays.
  public static func encode(_ entries: [CommitLogEntry]) -> Data {
    CommitLogJSON.encode(entries) ?? encodeWithFoundation(entries)
  }

  /// ``encode(_:)`` by `JSONSerialization`, for entries ``CommitLogJSON`` leaves to it.
  public static func encodeWithFoundation(_ entries: [CommitLogEntry]) -> Data {
    let rows: [[Any]] = entries.map { entry in
      switch entry {
      case .transaction(let id): ["t", NSNumber(value: id.rawValue)]
      case .removedTransactions(let ids): ["x"] + ids.map { NSNumber(value: $0.rawValue) }
      case .account(let name): ["a", name]
      case .subscription(let id): ["s", NSNumber(value: id.rawValue)]
      case .removedSubscription(let id): ["rs", NSNumber(value: id.rawValue)]
      case .askToBuyRequest(let id): ["r", NSNumber(value: id.rawValue)]
      case .currentAccount: ["ca"]
      case .clock: ["c"]
      case .notificationURL(let environment): ["n", environment]
      case .deviceValue(let key): ["d", key]
      case .massExtension(let product, let request): ["m", product.rawValue, request]
      }
    }
    // Strings and numbers only: serialization cannot fail.
    return (try? JSONSerialization.data(withJSONObject: rows)) ?? Data("[]".utf8)
  }

  /// Reads a log row's bytes; nil when they are not a log row (a damaged ledger).
  public static func decode(_ data: Data) -> [CommitLogEntry]? {
    guard let rows = (try? JSONSerialization.jsonObject(with: data)) as? [[Any]] else { return nil }
    var entries: [CommitLogEntry] = []
    entries.reserveCapacity(rows.count)
    for row in rows {
      guard let kind = row.first as? String else { return nil }
      let operands = row.dropFirst()
      func id(_ value: Any?) -> PaymentTransaction.ID? { (value as? NSNumber).map { PaymentTransaction.ID($0.uint64Value) } }
      switch (kind, operands.count) {
      case ("t", 1): guard let value = id(operands.first) else { return nil }; entries.append(.transaction(value))
      case ("x", _):
        let ids = operands.compactMap(id)
        guard ids.count == operands.count else { return nil }
        entries.append(.removedTransactions(ids))
      case ("a", 1): guard let name = operands.first as? String else { return nil }; entries.append(.account(name))
      case ("s", 1): guard let value = id(operands.first) else { return nil }; entries.append(.subscription(value))
      case ("rs", 1): guard let value = id(operands.first) else { return nil }; entries.append(.removedSubscription(value))
      case ("r", 1): guard let value = id(operands.first) else { return nil }; entries.append(.askToBuyRequest(value))
      case ("ca", 0): entries.append(.currentAccount)
      case ("c", 0): entries.append(.clock)
      case ("n", 1): guard let name = operands.first as? String else { return nil }; entries.append(.notificationURL(environment: name))
      case ("d", 1): guard let key = operands.first as? String else { return nil }; entries.append(.deviceValue(key: key))
      case ("m", 2):
        guard let product = operands.first as? String, let request = operands.last as? String else { return nil }
        entries.append(.massExtension(productID: Product.ID(product), requestID: request))
      default: return nil
      }
    }
    return entries
  }

  /// The rows a reader looked up for a read's entries, as they are in that read.
  public struct Rows: Sendable {
    public var transactions: [PaymentTransaction.ID: PaymentTransaction] = [:]
    public var subscriptions: [PaymentTransaction.ID: SubscriptionRecord] = [:]
    public var askToBuyRequests: [PaymentTransaction.ID: AskToBuyRequest] = [:]
    public var accounts: [String: SandboxAccount] = [:]
    public var currentAccount: String?
    public var clock: Date?
    public var notificationURLs: [String: String] = [:]
    public var deviceValues: [String: String] = [:]
    public var massExtensions: [String: MassExtension] = [:]

    public init() {}

    /// Takes one row of a ledger's key/value table in (both stores name them alike: `account`,
    /// `clock`, `notification-url.<environment>`, `device.<key>`); other keys are not the log's.
    public mutating func take(value: String, forKey key: String) {
      if key == "account" {
        currentAccount = value.isEmpty ? nil : value
      } else if key == "clock", let seconds = Double(value) {
        clock = Date(timeIntervalSince1970: seconds)
      } else if key.hasPrefix("notification-url."), !value.isEmpty {
        notificationURLs[String(key.dropFirst("notification-url.".count))] = value
      } else if key.hasPrefix("device."), !value.isEmpty {
        deviceValues[String(key.dropFirst("device.".count))] = value
      }
    }

    /// The key of a mass extension in ``massExtensions``.
    public static func key(_ productID: Product.ID, _ requestID: String) -> String { productID.rawValue + "\u{1F}" + requestID }
  }

  /// What a read must look up for `commits`' entries.
  public struct Wanted: Sendable, Equatable {
    public var transactions: [PaymentTransaction.ID] = []
    public var subscriptions: [PaymentTransaction.ID] = []
    public var askToBuyRequests: [PaymentTransaction.ID] = []
    public var accounts: [String] = []
    public var values = false
    public var massExtensions: [(productID: Product.ID, requestID: String)] = []

    public init(_ commits: [[CommitLogEntry]]) {
      var seen: Set<CommitLogEntry> = []
      for entry in commits.joined() where seen.insert(entry).inserted {
        switch entry {
        case .transaction(let id): transactions.append(id)
        case .subscription(let id): subscriptions.append(id)
        case .askToBuyRequest(let id): askToBuyRequests.append(id)
        case .account(let name): accounts.append(name)
        case .currentAccount, .clock, .notificationURL, .deviceValue: values = true
        case .massExtension(let product, let request): massExtensions.append((product, request))
        case .removedTransactions, .removedSubscription: break
        }
      }
    }

    public static func == (lhs: Wanted, rhs: Wanted) -> Bool {
      lhs.transactions == rhs.transactions && lhs.subscriptions == rhs.subscriptions
        && lhs.askToBuyRequests == rhs.askToBuyRequests && lhs.accounts == rhs.accounts && lhs.values == rhs.values
        && lhs.massExtensions.map { Rows.key($0.productID, $0.requestID) } == rhs.massExtensions.map { Rows.key($0.productID, $0.requestID) }
    }
  }

  /// The typed changes of each commit, in order, with rows as they are in the read. A row several
  /// of these commits name comes with the last of them only (it carries their combined effect), so
  /// no change is applied twice; a row gone by now is left out (a later commit removed it).
  public static func materialize(_ commits: [(position: UInt64, entries: [CommitLogEntry])], rows: Rows) -> [LedgerCommitRecord] {
    var last: [CommitLogEntry: Int] = [:]
    for (index, commit) in commits.enumerated() {
      for entry in commit.entries where !entry.isRemoval { last[entry] = index }
    }
    return commits.enumerated().map { index, commit in
      var changes: [LedgerChange] = []
      for entry in commit.entries where entry.isRemoval || last[entry] == index {
        switch entry {
        case .transaction(let id): if let row = rows.transactions[id] { changes.append(.putTransaction(row)) }
        case .removedTransactions(let ids): changes += ids.map(LedgerChange.deleteTransaction)
        case .account(let name): if let row = rows.accounts[name] { changes.append(.putAccount(row)) }
        case .subscription(let id): if let row = rows.subscriptions[id] { changes.append(.putSubscription(row)) }
        case .removedSubscription(let id): changes.append(.removeSubscription(id))
        case .askToBuyRequest(let id): if let row = rows.askToBuyRequests[id] { changes.append(.putAskToBuyRequest(row)) }
        case .currentAccount: changes.append(.setCurrentAccount(rows.currentAccount))
        case .clock: if let clock = rows.clock { changes.append(.setClock(clock)) }
        case .notificationURL(let environment):
          changes.append(.setNotificationURL(environment: environment, url: rows.notificationURLs[environment]))
        case .deviceValue(let key): changes.append(.setDeviceValue(key: key, value: rows.deviceValues[key]))
        case .massExtension(let product, let request):
          if let row = rows.massExtensions[Rows.key(product, request)] { changes.append(.putMassExtension(row)) }
        }
      }
      return LedgerCommitRecord(position: commit.position, changes: changes)
    }
  }
}

extension CommitLogEntry {
  var isRemoval: Bool {
    switch self {
    case .removedTransactions, .removedSubscription: true
    default: false
    }
  }
}

/// One commit as a reader gets it: its position in the log and its typed changes.
public struct LedgerCommitRecord: Sendable, Equatable {
  public var position: UInt64
  public var changes: [LedgerChange]

  public init(position: UInt64, changes: [LedgerChange]) {
    self.position = position
    self.changes = changes
  }
}
