import CSQLite
import Foundation
import StoreEngine

/// The durable ledger: one SQLite database file in WAL mode with `synchronous=FULL`.
///
/// Each ``commit(_:)`` is one `BEGIN IMMEDIATE … COMMIT` transaction: when it returns, the changes
/// are on disk; when it throws, nothing of the batch was written. Puts are upserts keyed by id, so
/// replaying a batch changes nothing. Several stores (in this process or others) may share the file:
/// SQLite's locks serialize their commits, and a writer waits up to ``Options/busyTimeout`` before
/// failing with ``LedgerError/busy(path:)``.
///
/// The directory is kept at mode 0700 and the database files at 0600; when they are readable by
/// others at open, the store fixes them and records a message in ``warnings``.
///
/// > Important: An instance is not thread-safe. Use it from one thread at a time (the engine's), or
/// > open one store per thread.
public final class SQLiteLedgerStore: LedgerStore {
  /// How the store opens its database.
  public struct Options: Sendable {
    /// How long a commit waits for another connection's lock before ``LedgerError/busy(path:)``.
    public var busyTimeout: Duration
    /// Opens the file for reading only; ``SQLiteLedgerStore/commit(_:)`` then throws ``LedgerError/readOnly(path:)``.
    public var readOnly: Bool
    /// Runs `PRAGMA quick_check` at open and refuses a damaged file.
    public var checkAtOpen: Bool
    /// How many commits the commit log keeps behind the newest (DECISIONS §41): a reader further
    /// behind starts over from the present. Trimmed every `commitLogKept / 16` commits.
    public var commitLogKept: Int64

    public init(
      busyTimeout: Duration = .seconds(5), readOnly: Bool = false, checkAtOpen: Bool = true, commitLogKept: Int64 = 4096
    ) {
      self.busyTimeout = busyTimeout
      self.readOnly = readOnly
      self.checkAtOpen = checkAtOpen
      self.commitLogKept = max(16, commitLogKept)
    }
  }

  /// The file name inside a data directory.
  public static let fileName = "ledger.sqlite"
  /// The schema version this build writes (`PRAGMA user_version`).
  public static var schemaVersion: Int { LedgerSchema.currentVersion }

  /// The database file.
  public let path: String
  /// Problems the store fixed while opening (for example a world-readable file), for the user.
  public private(set) var warnings: [String] = []

  let connection: SQLiteConnection
  let options: Options
  let coder = LedgerJSONCoder()
  /// Subscription records keep the format they had under the key/value table: dates as
  /// milliseconds since 1970.
  let recordCoder = LedgerJSONCoder(millisecondDates: true)
  let headers = JWSHeaderTable()
  private var statements: Statements?
  /// The commit-log positions of this connection's own commits not yet passed by a read of the
  /// log: ``changes(since:)`` reports other connections' commits only.
  var ownCommits: Set<Int64> = []

  /// Opens or creates `<directory>/ledger.sqlite`, creating the directory (mode 0700) if needed.
  ///
  /// - Throws: A ``LedgerError`` naming the file when the directory or file can't be used, the file
  ///   is damaged or from a newer storefront, or it stays locked longer than the busy timeout.
  public convenience init(directory: URL, options: Options = Options()) throws(LedgerError) {
    let directoryPath = directory.path
    let path = directory.appendingPathComponent(Self.fileName).path
    var warnings: [String] = []
    if !options.readOnly {
      try LedgerFileAccess.createDirectory(directoryPath, ledgerPath: path)
    }
    if let warning = try LedgerFileAccess.makePrivate(
      directoryPath, mode: 0o700, kind: "data directory", ledgerPath: path)
    {
      warnings.append(warning)
    }
    try self.init(fileURL: URL(fileURLWithPath: path), options: options)
    self.warnings.insert(contentsOf: warnings, at: 0)
  }

  /// Opens or creates the database file at `fileURL`; its directory must exist. Only the file and
  /// its `-wal`/`-shm` companions are made private, not the directory.
  public init(fileURL: URL, options: Options = Options()) throws(LedgerError) {
    let path = fileURL.path
    self.path = path
    self.options = options
    if !options.readOnly {
      try LedgerFileAccess.createFile(path)
      try LedgerFileAccess.checkDirectoryWritable(of: path)
    }
    warnings += try Self.makeFilesPrivate(path)
    do {
      connection = try SQLiteConnection(path: path, readOnly: options.readOnly)
    } catch {
      throw Self.openError(error, path: path)
    }
    try configure()
    warnings += try Self.makeFilesPrivate(path)
  }

  deinit { close() }

  /// Closes the database; later calls throw ``LedgerError/cannotOpen(path:reason:)``.
  public func close() {
    statements = nil
    connection.close()
  }

  /// Reads what a launch needs in one read transaction: the working set of transactions (every
  /// unfinished one, and each chain's first and current row) in first-insertion order, accounts in
  /// order of their latest put, subscription records, the signed-in account and the clock.
  ///
  /// - Throws: ``LedgerError/corrupt(path:reason:)`` when a stored value can't be decoded: a
  ///   record that does not decode is reported, never dropped.
  public func load() throws(LedgerError) -> LedgerSnapshot {
    let statements = try openStatements()
    var snapshot = LedgerSnapshot()
    var undecodable: String?
    do {
      // One read transaction, so the tables are seen at the same instant.
      try statements.beginRead.run()
      defer { if !connection.isAutocommit { try? statements.rollback.run() } }
      try statements.selectWorkingSet.forEachRow { row in
        if let transaction = decodeTransaction(row.storedTransaction(at: 2)) {
          snapshot.transactions.append(transaction)
        } else if undecodable == nil {
          undecodable = "transaction \(UInt64(bitPattern: row.int64(at: 1)))"
        }
      }
      try statements.selectAccounts.forEachRow { row in
        if let account = try? coder.decode(SandboxAccount.self, from: row.text(at: 1)) {
          snapshot.accounts.append(account)
        } else if undecodable == nil {
          undecodable = "account '\(row.text(at: 0))'"
        }
      }
      try statements.selectSubscriptions.forEachRow { row in
        if let record = try? recordCoder.decode(SubscriptionRecord.self, from: row.text(at: 1)) {
          snapshot.subscriptions.append(record)
        } else if undecodable == nil {
          undecodable = "subscription record of transaction \(UInt64(bitPattern: row.int64(at: 0)))"
        }
      }
      try statements.selectOpenRequests.forEachRow { row in
        if let request = try? recordCoder.decode(AskToBuyRequest.self, from: row.text(at: 1)) {
          snapshot.askToBuyRequests.append(request)
        } else if undecodable == nil {
          undecodable = "Ask to Buy request \(UInt64(bitPattern: row.int64(at: 0)))"
        }
      }
      try statements.selectChangeCounter.forEachRow { row in snapshot.position = UInt64(clamping: row.int64(at: 0)) }
      try statements.selectValues.forEachRow { row in
        switch row.text(at: 0) {
        case LedgerSchema.accountKey:
          let name = row.text(at: 1)
          snapshot.currentAccount = name.isEmpty ? nil : name
        case LedgerSchema.clockKey:
          let text = row.text(at: 1)
          if let seconds = Double(text) {
            snapshot.clock = Date(timeIntervalSince1970: seconds)
          } else if undecodable == nil {
            undecodable = "clock '\(text)'"
          }
        case let key where key.hasPrefix(LedgerSchema.notificationURLPrefix):
          let url = row.text(at: 1)
          if !url.isEmpty { snapshot.notificationURLs[String(key.dropFirst(LedgerSchema.notificationURLPrefix.count))] = url }
        case let key where key.hasPrefix(LedgerSchema.devicePrefix):
          let value = row.text(at: 1)
          if !value.isEmpty { snapshot.deviceValues[String(key.dropFirst(LedgerSchema.devicePrefix.count))] = value }
        default: break
        }
      }
      try statements.commit.run()
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    if let undecodable {
      throw .corrupt(path: path, reason: "the stored \(undecodable) could not be decoded")
    }
    return snapshot
  }

  /// Every transaction of `account`, oldest first.
  public func history(account: String) throws(LedgerError) -> [PaymentTransaction] {
    let statements = try openStatements()
    do {
      try statements.selectHistory.bind(account, at: 1)
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    return try readTransactions(statements.selectHistory)
  }

  /// The transactions a statement selects as `(id, json)` rows; a row that does not decode is
  /// reported as `.corrupt`, never dropped.
  private func readTransactions(_ select: SQLiteStatement) throws(LedgerError) -> [PaymentTransaction] {
    var list: [PaymentTransaction] = []
    var undecodable: UInt64?
    do {
      try select.forEachRow { row in
        if let transaction = decodeTransaction(row.storedTransaction(at: 1)) {
          list.append(transaction)
        } else if undecodable == nil {
          undecodable = UInt64(bitPattern: row.int64(at: 0))
        }
      }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    if let undecodable { throw .corrupt(path: path, reason: "the stored transaction \(undecodable) could not be decoded") }
    return list
  }

  /// Every stored transaction of every account, in first-insertion order (`storefront transactions --all`).
  public func allTransactions() throws(LedgerError) -> [PaymentTransaction] {
    _ = try openStatements()
    let select: SQLiteStatement
    do {
      select = try connection.prepare(LedgerSchema.selectTransactions)
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    return try readTransactions(select)
  }

  /// The stored transactions with these ids, in the order of `ids` (missing ones left out).
  public func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] {
    let statements = try openStatements()
    var list: [PaymentTransaction] = []
    for id in ids {
      var json: StoredTransactionRow?
      do {
        try statements.selectTransactionJSON.bind(Int64(bitPattern: id.rawValue), at: 1)
        try statements.selectTransactionJSON.forEachRow { row in json = row.storedTransaction(at: 0) }
      } catch {
        throw LedgerError(error, path: path, while: .reading)
      }
      guard let json else { continue }
      guard let transaction = decodeTransaction(json) else {
        throw .corrupt(path: path, reason: "the stored transaction \(id) could not be decoded")
      }
      list.append(transaction)
    }
    return list
  }

  public func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? {
    let statements = try openStatements()
    var json: String?
    do {
      try statements.selectMassExtension.bind(productID.rawValue, at: 1)
      try statements.selectMassExtension.bind(requestID, at: 2)
      try statements.selectMassExtension.forEachRow { row in json = row.text(at: 0) }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    guard let json else { return nil }
    guard let request = try? recordCoder.decode(MassExtension.self, from: json) else {
      throw .corrupt(path: path, reason: "the stored mass extension '\(requestID)' of \(productID.rawValue) could not be decoded")
    }
    return request
  }

  /// The stored JSON of transaction `id` as text (inflated), for inspection and tests.
  func storedJSON(of id: PaymentTransaction.ID) throws(LedgerError) -> String? {
    let statements = try openStatements()
    var found: (data: Data, isBlob: Bool)?
    do {
      try statements.selectTransactionJSON.bind(Int64(bitPattern: id.rawValue), at: 1)
      try statements.selectTransactionJSON.forEachRow { row in found = row.bytes(at: 0) }
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
    guard let found, let json = found.isBlob ? RowCompression.inflate(found.data) : found.data else { return nil }
    return String(decoding: json, as: UTF8.self)
  }

  /// A stored transaction row (deflated JSON, or TEXT from schema v1), with its JWS headers put
  /// back and its finished flag from its column; nil when it does not decode.
  func decodeTransaction(_ stored: StoredTransactionRow) -> PaymentTransaction? {
    guard let json = stored.isBlob ? RowCompression.inflate(stored.data) : stored.data,
      var transaction = try? coder.decode(PaymentTransaction.self, from: json)
    else { return nil }
    transaction.isFinished = stored.isFinished
    return headers.expand(transaction) { storedHeaders() }
  }

  private func storedHeaders() -> [String: String] {
    guard let statements else { return [:] }
    var found: [String: String] = [:]
    try? statements.selectHeaders.forEachRow { row in found[row.text(at: 0)] = row.text(at: 1) }
    return found
  }

  /// Applies `changes` in order as one `BEGIN IMMEDIATE … COMMIT` transaction, durable on return.
  ///
  /// - Throws: ``LedgerError/busy(path:)`` after waiting the busy timeout for another writer,
  ///   ``LedgerError/writeFailed(path:reason:)`` (for example a full disk), or
  ///   ``LedgerError/readOnly(path:)``. Nothing of the batch is written when it throws.
  public func commit(_ changes: [LedgerChange]) throws(LedgerError) {
    let statements = try openStatements()
    guard !options.readOnly else { throw .readOnly(path: path) }
    guard !changes.isEmpty else { return }
    // Encode before taking the write lock, so other processes wait as little as possible.
    let encoded = try encode(changes)
    var violation: LedgerError?
    do {
      try statements.begin.run()
      violation = try preconditionViolation(changes, with: statements)
      if violation == nil {
        let logged = try apply(encoded, logging: changes, with: statements)
        try statements.commit.run()
        if let logged { ownCommits.insert(logged) }
      } else {
        try statements.rollback.run()
      }
    } catch {
      // SQLite may already have rolled back (SQLITE_FULL, I/O errors); roll back only if not.
      if !connection.isAutocommit { try? statements.rollback.run() }
      throw LedgerError(error, path: path, while: .writing)
    }
    if let violation { throw violation }
  }

  /// The result of `PRAGMA integrity_check`: `ok`, or one line per problem.
  public func integrityCheck() throws(LedgerError) -> String {
    guard connection.isOpen else { throw closedError }
    do {
      return try connection.texts("PRAGMA integrity_check").joined(separator: "\n")
    } catch {
      throw LedgerError(error, path: path, while: .reading)
    }
  }

  // MARK: - Opening

  private func configure() throws(LedgerError) {
    let milliseconds =
      options.busyTimeout.components.seconds * 1000
      + options.busyTimeout.components.attoseconds / 1_000_000_000_000_000
    connection.setBusyTimeout(milliseconds: Int32(clamping: milliseconds))
    if !options.readOnly && connection.isReadOnly { throw .readOnly(path: path) }
    do {
      if options.readOnly {
        // Reading the schema is what detects a file that is not a database.
        _ = try connection.integer("PRAGMA user_version")
      } else {
        let mode = try switchToWAL()
        guard mode == "wal" else {
          throw LedgerError.cannotOpen(
            path: path,
            reason: "SQLite could not switch it to WAL mode (it stays in '\(mode)' mode)")
        }
      }
      try connection.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
      // A full check reads every page; past a size it would make a launch cost grow with the
      // history, so large ledgers rely on SQLite reporting damage where it is read (→ .corrupt).
      if options.checkAtOpen, Self.fileSize(path) <= Self.fullCheckLimit {
        let problems = try connection.texts("PRAGMA quick_check")
        guard problems == ["ok"] else {
          throw LedgerError.corrupt(path: path, reason: problems.prefix(3).joined(separator: "; "))
        }
      }
      try migrate()
      statements = try Statements(connection)
    } catch let error as LedgerError {
      throw error
    } catch let error as SQLiteFailure {
      throw LedgerError(error, path: path, while: .opening)
    } catch {
      throw .cannotOpen(path: path, reason: String(describing: error))
    }
  }

  /// Puts the database in WAL mode (a no-op read when it already is) and returns the mode.
  ///
  /// Only a brand-new file needs the switch, which takes an exclusive lock; SQLite does not call the
  /// busy handler for it, so when two processes create the ledger at once, the loser retries here
  /// until the busy timeout has passed.
  private func switchToWAL() throws(SQLiteFailure) -> String {
    let current = try connection.texts("PRAGMA journal_mode").first?.lowercased() ?? ""
    if current == "wal" { return current }
    let deadline = ContinuousClock.now + options.busyTimeout
    while true {
      do {
        return try connection.texts("PRAGMA journal_mode = WAL").first?.lowercased() ?? ""
      } catch  where error.primaryCode == SQLITE_BUSY && ContinuousClock.now < deadline {
        connection.sleep(milliseconds: 5)
      }
    }
  }

  /// Brings the schema up to ``schemaVersion`` inside one write transaction, re-reading the
  /// version under the lock in case another process migrated first.
  private func migrate() throws {
    let supported = LedgerSchema.currentVersion
    var version = Int(try connection.integer("PRAGMA user_version"))
    try checkVersion(version)
    if version == supported { return }
    guard !options.readOnly else {
      throw LedgerError.cannotOpen(
        path: path,
        reason: "it has schema version \(version) and must be upgraded; open it once read-write")
    }
    try connection.execute("BEGIN IMMEDIATE")
    do {
      version = Int(try connection.integer("PRAGMA user_version"))
      try checkVersion(version)
      while version < supported {
        try connection.execute(LedgerSchema.migrations[version])
        version += 1
        try LedgerSchema.backfills[version]?(self)
      }
      try connection.execute(
        "PRAGMA application_id = \(LedgerSchema.applicationID); PRAGMA user_version = \(supported); COMMIT"
      )
    } catch {
      if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
      throw error
    }
  }

  private func checkVersion(_ version: Int) throws {
    if version > LedgerSchema.currentVersion {
      throw LedgerError.newerSchema(
        path: path, found: version, supported: LedgerSchema.currentVersion)
    }
    if version > 0 {
      let application = try connection.integer("PRAGMA application_id")
      guard application == LedgerSchema.applicationID else {
        throw LedgerError.cannotOpen(
          path: path, reason: "it is an SQLite database of another program, not a storefront ledger"
        )
      }
    }
  }

  /// Ledgers up to this size are fully checked (`PRAGMA quick_check`) at open.
  public static let fullCheckLimit = 32 << 20

  private static func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
  }

  private static func makeFilesPrivate(_ path: String) throws(LedgerError) -> [String] {
    var warnings: [String] = []
    for (file, kind) in [
      (path, "ledger file"), (path + "-wal", "ledger WAL file"), (path + "-shm", "ledger SHM file"),
    ] {
      if let warning = try LedgerFileAccess.makePrivate(
        file, mode: 0o600, kind: kind, ledgerPath: path)
      {
        warnings.append(warning)
      }
    }
    return warnings
  }

  private static func openError(_ failure: SQLiteFailure, path: String) -> LedgerError {
    LedgerError(failure, path: path, while: .opening)
  }

  private var closedError: LedgerError {
    .cannotOpen(path: path, reason: "the store was closed; open it again")
  }

  func preparedStatements() throws(LedgerError) -> Statements { try openStatements() }

  func openStatements() throws(LedgerError) -> Statements {
    guard let statements, connection.isOpen else { throw closedError }
    return statements
  }
}
