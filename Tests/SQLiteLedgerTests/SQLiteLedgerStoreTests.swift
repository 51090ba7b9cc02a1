import Foundation
import StoreEngine
import XCTest

@testable import SQLiteLedger

/// Persistence, exact round-trips, the pragmas and the stored format.
final class SQLiteLedgerStoreTests: XCTestCase {
  func testChangesPersistAcrossCloseAndReopen() throws {
    let directory = try TemporaryDirectory()
    let batch: [LedgerChange] = [
      .putAccount(LedgerFixtures.alice), .putAccount(LedgerFixtures.bob),
      .putTransaction(LedgerFixtures.transaction(1)),
      .putTransaction(LedgerFixtures.fullyPopulated()),
      .setCurrentAccount("bob@example.com"),
    ]
    var store: SQLiteLedgerStore? = try SQLiteLedgerStore(directory: directory.url)
    try store?.commit(batch)
    let written = try XCTUnwrap(store?.load())
    store = nil
    let reopened = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(try reopened.load(), written)
    XCTAssertEqual(try reopened.allTransactions().count, 2)
    XCTAssertEqual(written.accounts.count, 2)
    // Reopening an existing ledger does not migrate or change anything.
    XCTAssertEqual(try reopened.connection.integer("PRAGMA user_version"), Int64(SQLiteLedgerStore.schemaVersion))
  }

  func testExplicitCloseMakesLaterCallsFailClearly() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    store.close()
    XCTAssertThrowsError(try store.commit([.setCurrentAccount("v")])) { error in
      guard case .cannotOpen(let path, let reason) = error as? LedgerError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, directory.ledgerPath)
      XCTAssertTrue(reason.contains("closed"), reason)
    }
    XCTAssertThrowsError(try store.load())
  }

  func testInitWithFilePathUsesThatFile() throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("custom.db")
    let store = try SQLiteLedgerStore(fileURL: file)
    try store.commit([.setCurrentAccount("v")])
    XCTAssertEqual(store.path, file.path)
    XCTAssertTrue(FileManager.default.fileExists(atPath: file.path))
    XCTAssertFalse(FileManager.default.fileExists(atPath: directory.ledgerPath))
  }

  func testEveryFieldRoundTripsExactlyThroughReopen() throws {
    let directory = try TemporaryDirectory()
    let full = LedgerFixtures.fullyPopulated()
    // Guard against fields added later without a value in the fixture.
    for child in Mirror(reflecting: full).children {
      let value = Mirror(reflecting: child.value)
      if value.displayStyle == .optional {
        XCTAssertNotNil(value.children.first, "fullyPopulated() leaves '\(child.label ?? "?")' nil")
      }
    }
    let prices: [Decimal] = [
      0, Decimal(sign: .plus, exponent: -1, significand: 1),
      Decimal(sign: .plus, exponent: -2, significand: 99),
      Decimal(sign: .minus, exponent: -3, significand: 1_500),
      Decimal(sign: .plus, exponent: -9, significand: 1_234_567_890_123_456_789),
      Decimal(sign: .plus, exponent: 4, significand: 12_000),
    ]
    let dates: [Date] = [
      LedgerFixtures.baseDate, LedgerFixtures.baseDate.addingTimeInterval(0.001),
      Date(timeIntervalSinceReferenceDate: 0.1),
      Date(timeIntervalSinceReferenceDate: 737_000_000.123_456_7),
      Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1.5), .distantPast,
      .distantFuture,
    ]
    var transactions: [PaymentTransaction] = []
    for (index, price) in prices.enumerated() {
      transactions.append(LedgerFixtures.fullyPopulated(id: UInt64(100 + index), price: price))
    }
    for (index, date) in dates.enumerated() {
      transactions.append(
        LedgerFixtures.fullyPopulated(id: UInt64(200 + index), purchaseDate: date))
    }
    do {
      let store = try SQLiteLedgerStore(directory: directory.url)
      try store.commit(transactions.map { .putTransaction($0) })
    }
    let loaded = try SQLiteLedgerStore(directory: directory.url).allTransactions()
    XCTAssertEqual(loaded, transactions)
    for (stored, original) in zip(loaded, transactions) {
      XCTAssertEqual(stored.price, original.price)
      XCTAssertEqual(
        stored.purchaseDate.timeIntervalSinceReferenceDate.bitPattern,
        original.purchaseDate.timeIntervalSinceReferenceDate.bitPattern, "\(original.purchaseDate)")
    }
  }

  func testPragmasAreSetOnEveryConnection() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(try store.connection.texts("PRAGMA journal_mode"), ["wal"])
    XCTAssertEqual(try store.connection.integer("PRAGMA synchronous"), 2, "2 is FULL")
    XCTAssertEqual(try store.connection.integer("PRAGMA foreign_keys"), 1)
    XCTAssertEqual(
      try store.connection.integer("PRAGMA user_version"), Int64(SQLiteLedgerStore.schemaVersion))
    XCTAssertEqual(
      try store.connection.integer("PRAGMA application_id"), LedgerSchema.applicationID)
    XCTAssertEqual(try store.connection.integer("PRAGMA busy_timeout"), 5_000)
    let second = try SQLiteLedgerStore(
      directory: directory.url, options: .init(busyTimeout: .milliseconds(250)))
    XCTAssertEqual(try second.connection.integer("PRAGMA synchronous"), 2)
    XCTAssertEqual(try second.connection.integer("PRAGMA foreign_keys"), 1)
    XCTAssertEqual(try second.connection.integer("PRAGMA busy_timeout"), 250)
  }

  func testSchemaHasTheIndexedColumns() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    let indexed = try store.connection.texts(
      "SELECT il.name FROM pragma_index_list('transactions') AS l, pragma_index_info(l.name) AS il ORDER BY 1"
    )
    XCTAssertEqual(
      indexed,
      [
        "account", "account", "account", "account", "changed", "id", "id_key", "id_key", "id_key", "is_finished", "last_modified_ms",
        "last_modified_ms", "original_id", "original_id", "product_id", "product_id", "purchase_date", "purchase_date",
        "purchase_date", "revoked_ms", "state",
      ])
    XCTAssertEqual(
      try store.connection.texts(
        "SELECT il.name FROM pragma_index_list('subscriptions') AS l, pragma_index_info(l.name) AS il WHERE l.origin = 'c' ORDER BY 1"),
      ["account", "original_id", "status"], "one account's records of some statuses by index (Get All Subscription Statuses)")
    XCTAssertEqual(SQLiteLedgerStore.schemaVersion, 8)
    XCTAssertEqual(
      try store.connection.texts("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY 1"),
      [
        "accounts", "ask_to_buy", "chains", "commit_log", "consumable_units", "history_counts", "jws_headers", "kv", "mass_extensions", "outbox",
        "outbox_delivery", "outbox_sent",
        "sqlite_sequence", "subscriptions", "transactions",
      ])
  }

  func testAVersion3LedgerGetsTheMassExtensionTable() throws {
    let directory = try TemporaryDirectory()
    let bought = LedgerFixtures.transaction(7, state: .purchased)
    do {
      let store = try SQLiteLedgerStore(directory: directory.url)
      try store.commit([.putTransaction(bought)])
      try HistoryMigrationTests.downgradeToVersion6(store)
      try store.connection.execute(
        "DROP TRIGGER outbox_queued; DROP TABLE outbox_delivery; DROP TABLE outbox_sent; DROP TABLE outbox; DROP TABLE mass_extensions; PRAGMA user_version = 3")
      store.close()
    }
    let store = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(try store.connection.integer("PRAGMA user_version"), Int64(SQLiteLedgerStore.schemaVersion))
    XCTAssertEqual(try store.connection.integer("SELECT count(*) FROM outbox"), 0, "v5: the notification outbox")
    XCTAssertEqual(try store.allTransactions(), [bought])
    XCTAssertNil(try store.massExtension(productID: "monthly", requestID: "r1"))
    let request = MassExtension(
      productID: "monthly", requestID: "r1", days: 3, reasonCode: 1, storefronts: ["USA"],
      completeDate: LedgerFixtures.baseDate, succeeded: 2, failed: 1)
    try store.commit([.putMassExtension(request)])
    XCTAssertEqual(try store.massExtension(productID: "monthly", requestID: "r1"), request)
    XCTAssertNil(try store.massExtension(productID: "yearly", requestID: "r1"), "kept by product and request id")
  }

  func testStoredJSONHasSortedKeysAndReadableDates() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    var transaction = LedgerFixtures.transaction(7, state: .purchased, secondsAfterBase: 0.25)
    transaction.expiresDate = Date(timeIntervalSinceReferenceDate: 737_000_000.123_456_7)
    try store.commit([.putTransaction(transaction)])
    XCTAssertEqual(try store.connection.texts("SELECT typeof(json) FROM transactions"), ["text"], "a small row is stored as it is")
    var signed = transaction
    signed.id = PaymentTransaction.ID(8)
    signed.signedTransaction = String(repeating: "x", count: 2000)
    try store.commit([.putTransaction(signed)])
    XCTAssertEqual(try store.connection.texts("SELECT typeof(json) FROM transactions ORDER BY id"), ["text", "blob"], "a large row is deflated")
    XCTAssertEqual(try store.transactions([signed.id]), [signed])
    let json = try XCTUnwrap(try store.storedJSON(of: transaction.id))
    XCTAssertTrue(json.contains(#""purchaseDate":"2024-05-01T12:00:00.250Z""#), json)
    XCTAssertTrue(json.contains(#""expiresDate":737000000.1234567"#), json)
    XCTAssertTrue(json.contains(#""price":0.99"#), json)
    let keys = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    ).keys.sorted()
    let positions = keys.compactMap { json.range(of: "\"\($0)\":")?.lowerBound }
    XCTAssertEqual(positions, positions.sorted(), "keys are written in sorted order")
    let row = try store.connection.prepare(
      "SELECT id, account, product_id, state, is_finished, original_id, purchase_date FROM transactions WHERE id = 7"
    )
    try row.forEachRow { row in
      XCTAssertEqual(row.int64(at: 0), 7)
      XCTAssertEqual(row.text(at: 1), "alice")
      XCTAssertEqual(row.text(at: 2), "com.example.gems")
      XCTAssertEqual(row.int64(at: 3), 1)
      XCTAssertEqual(row.int64(at: 4), 0)
      XCTAssertEqual(row.int64(at: 5), 7)
      XCTAssertEqual(row.text(at: 6), "1714564800.25")
    }
  }

  func testIntegrityCheckIsOK() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    try store.commit((1...50).map { .putTransaction(LedgerFixtures.transaction($0)) })
    XCTAssertEqual(try store.integrityCheck(), "ok")
  }

  func testReadOnlyOptionLoadsButRefusesCommits() throws {
    let directory = try TemporaryDirectory()
    try SQLiteLedgerStore(directory: directory.url).commit([.setCurrentAccount("v")])
    let reader = try SQLiteLedgerStore(directory: directory.url, options: .init(readOnly: true))
    XCTAssertEqual(try reader.load().currentAccount, "v")
    XCTAssertThrowsError(try reader.commit([.setCurrentAccount("w")])) { error in
      XCTAssertEqual(error as? LedgerError, .readOnly(path: directory.ledgerPath))
    }
  }

  func testUnchangedUpsertWritesNothing() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    let transaction = LedgerFixtures.transaction(1)
    try store.commit([.putTransaction(transaction), .setCurrentAccount("v")])
    let before = try store.connection.integer("SELECT total_changes()")
    try store.commit([.putTransaction(transaction), .setCurrentAccount("v")])
    XCTAssertEqual(try store.connection.integer("SELECT total_changes()"), before)
  }

  /// A ledger written by schema v1 (rows as JSON text, subscription records in the key/value
  /// table) opens as the current version: its rows still read, its records move to their table, its chains are found.
  func testAVersion1LedgerIsMigrated() throws {
    let directory = try TemporaryDirectory()
    var subscription = LedgerFixtures.transaction(5, state: .purchased)
    subscription.productKind = .autoRenewableSubscription
    subscription.expiresDate = LedgerFixtures.baseDate.addingTimeInterval(3600)
    let consumable = LedgerFixtures.transaction(6, state: .purchased, finished: true)
    let record = LedgerFixtures.subscription(5, account: subscription.account)
    do {
      let store = try SQLiteLedgerStore(directory: directory.url)
      try HistoryMigrationTests.downgradeToVersion6(store)
      try store.connection.execute(
        "DROP TRIGGER outbox_queued; DROP TABLE outbox_delivery; DROP TABLE outbox_sent; DROP TABLE outbox; DROP TABLE mass_extensions; DROP TABLE ask_to_buy; DROP TABLE subscriptions; DROP TABLE chains; DROP TABLE jws_headers; DROP INDEX transactions_changed; "
          + "ALTER TABLE transactions DROP COLUMN product_kind; ALTER TABLE transactions DROP COLUMN has_expiry; "
          + "ALTER TABLE transactions DROP COLUMN changed; PRAGMA user_version = 1")
      let coder = LedgerJSONCoder()
      let recordCoder = LedgerJSONCoder(millisecondDates: true)
      for (seq, transaction) in [subscription, consumable].enumerated() {
        let json = try coder.encode(transaction).replacingOccurrences(of: "'", with: "''")
        try store.connection.execute(
          "INSERT INTO transactions (seq, id, account, product_id, state, is_finished, original_id, purchase_date, json) "
            + "VALUES (\(seq + 1), \(transaction.id), '\(transaction.account)', '\(transaction.productID)', "
            + "\(transaction.state.rawValue), \(transaction.isFinished ? 1 : 0), \(transaction.originalID), 0, '\(json)')")
      }
      let recordJSON = try recordCoder.encode(record).replacingOccurrences(of: "'", with: "''")
      try store.connection.execute(
        "INSERT INTO kv (key, value) VALUES ('subscription.5', '\(recordJSON)'), ('account', 'alice'), ('clock', '1767225600')")
      store.close()
    }
    let store = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(try store.connection.integer("PRAGMA user_version"), Int64(SQLiteLedgerStore.schemaVersion))
    let snapshot = try store.load()
    XCTAssertEqual(snapshot.subscriptions, [record])
    XCTAssertEqual(snapshot.currentAccount, "alice")
    XCTAssertEqual(snapshot.clock, Date(timeIntervalSince1970: 1_767_225_600))
    XCTAssertEqual(snapshot.transactions, [subscription], "the chain is found; the finished consumable is history")
    XCTAssertEqual(try store.allTransactions(), [subscription, consumable])
    XCTAssertEqual(try store.connection.integer("SELECT count(*) FROM kv WHERE key LIKE 'subscription.%'"), 0)
    // v7's history columns come from the v1 rows' JSON.
    XCTAssertEqual(
      try store.historyPage(account: consumable.account, order: .lastModified, after: nil, limit: 5).rows,
      InMemoryLedgerStore.page(of: [subscription, consumable], order: .lastModified, after: nil, limit: 5).rows)
    XCTAssertEqual(try store.consumableUnits(account: consumable.account), [consumable.productID: 1])
  }
}
