import Foundation
import StoreEngine
import XCTest

@testable import SQLiteLedger

/// Schema v7 (history pages): a v6 ledger with data opens, is migrated in one transaction and then
/// pages and counts as a ledger written by v7 does; every history read walks an index.
final class HistoryMigrationTests: XCTestCase {
  /// Takes a current ledger back to v6 as a v6 build left it: without v7's columns and indexes.
  static func downgradeToVersion6(_ store: SQLiteLedgerStore) throws {
    try store.connection.execute(
      """
      DROP INDEX transactions_account_last_modified; DROP INDEX transactions_last_modified;
      DROP INDEX transactions_account_revoked; DROP INDEX subscriptions_account;
      DROP TRIGGER consumable_units_insert; DROP TRIGGER consumable_units_delete; DROP TRIGGER consumable_units_update;
      DROP TABLE consumable_units;
      DROP TRIGGER history_counts_insert; DROP TRIGGER history_counts_delete; DROP TRIGGER history_counts_update;
      DROP TABLE history_counts; DROP INDEX transactions_product_latest; DROP INDEX transactions_chain_latest;
      ALTER TABLE transactions DROP COLUMN last_modified_ms; ALTER TABLE transactions DROP COLUMN id_key;
      ALTER TABLE transactions DROP COLUMN quantity; ALTER TABLE transactions DROP COLUMN revoked;
      ALTER TABLE transactions DROP COLUMN revoked_ms; ALTER TABLE subscriptions DROP COLUMN status;
      DROP TABLE commit_log; DELETE FROM kv WHERE key = 'commit-log-floor'; PRAGMA user_version = 6;
      """)
  }

  private static let historyColumns = "SELECT id, last_modified_ms, id_key, quantity, revoked, revoked_ms FROM transactions ORDER BY seq"

  func testAVersion6LedgerIsMigratedAndPagesAsWritten() throws {
    let directory = try TemporaryDirectory()
    let reference = InMemoryLedgerStore()
    let written: [String]
    do {
      let store = try SQLiteLedgerStore(directory: directory.url)
      for batch in HistoryScript(seed: 7, steps: 40).batches {
        try store.commit(batch)
        try reference.commit(batch)
      }
      written = try store.connection.texts("SELECT group_concat(id || ' ' || last_modified_ms || ' ' || id_key || ' ' || quantity || ' ' || revoked, ';') FROM (\(Self.historyColumns))")
      XCTAssertGreaterThan(
        try store.connection.integer("SELECT count(*) FROM transactions WHERE typeof(json) = 'blob'"), 0,
        "some rows are stored compressed, as long signed rows are")
      try Self.downgradeToVersion6(store)
      XCTAssertEqual(try store.connection.integer("PRAGMA user_version"), 6)
    }
    let migrated = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(try migrated.connection.integer("PRAGMA user_version"), Int64(SQLiteLedgerStore.schemaVersion))
    XCTAssertEqual(
      try migrated.connection.texts("SELECT group_concat(id || ' ' || last_modified_ms || ' ' || id_key || ' ' || quantity || ' ' || revoked, ';') FROM (\(Self.historyColumns))"),
      written, "the back-fill stores what a v7 commit stores")
    XCTAssertEqual(try migrated.integrityCheck(), "ok")
    try LedgerStoreConformance.assertPagesMatch(migrated, reference, "migrated from v6")
    try LedgerStoreConformance.assertPresentReadsMatch(migrated, reference, "migrated from v6")
  }

  /// A row whose JSON does not decode does not stop the migration; reading it still reports it.
  func testAnUndecodableRowIsMigratedAndStillReported() throws {
    let directory = try TemporaryDirectory()
    do {
      let store = try SQLiteLedgerStore(directory: directory.url)
      try store.commit([.putTransaction(LedgerFixtures.transaction(1, state: .purchased, secondsAfterBase: 1.5))])
      try store.connection.execute("UPDATE transactions SET json = '{not json' WHERE id = 1")
      try Self.downgradeToVersion6(store)
    }
    let migrated = try SQLiteLedgerStore(directory: directory.url)
    XCTAssertEqual(
      try migrated.connection.integer("SELECT last_modified_ms FROM transactions WHERE id = 1"),
      SignedPayloads.milliseconds(LedgerFixtures.baseDate.addingTimeInterval(1.5)))
    XCTAssertThrowsError(try migrated.historyPage(account: "alice", order: .insertion, after: nil, limit: 5)) { error in
      guard case .corrupt = error as? LedgerError else { return XCTFail("\(error)") }
    }
  }

  /// The `detail` column of `EXPLAIN QUERY PLAN sql`, its rows joined by ` | `.
  private static func plan(_ sql: String, on connection: SQLiteConnection) throws -> String {
    let statement = try connection.prepare("EXPLAIN QUERY PLAN " + sql)
    var details: [String] = []
    try statement.forEachRow { row in details.append(row.text(at: 3)) }
    return details.joined(separator: " | ")
  }

  /// Every page and the consumable aggregate read through an index: no scan of the table, no
  /// sort of it, so a page costs the same on any history.
  func testHistoryReadsWalkAnIndex() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    try store.connection.execute("ANALYZE")
    var plans: [String: String] = [:]
    for byAccount in [true, false] {
      for order in [HistoryOrder.insertion, .lastModified] {
        for after in [true, false] {
          let sql = LedgerSchema.historyPage(byAccount: byAccount, order: order, after: after)
          plans[sql] = try Self.plan(sql, on: store.connection)
        }
      }
    }
    plans[LedgerSchema.selectConsumableUnits] = try Self.plan(LedgerSchema.selectConsumableUnits, on: store.connection)
    XCTAssertEqual(plans.count, 9)
    for (sql, plan) in plans {
      XCTAssertFalse(plan.contains("TEMP B-TREE"), "\(sql): \(plan)")
      XCTAssertTrue(
        plan.contains("USING INDEX") || plan.contains("USING PRIMARY KEY") || plan.contains("USING INTEGER PRIMARY KEY")
          || plan == "SCAN transactions", "\(sql): \(plan)")
    }
    XCTAssertTrue(try XCTUnwrap(plans[LedgerSchema.selectConsumableUnits]).contains("USING PRIMARY KEY (account=?)"))
  }

  /// The present's reads: the count is one row of `history_counts`, a window walks the order's
  /// index, and the newest row of a product or a chain is found by its purchase-date index (no sort).
  func testPresentReadsWalkAnIndex() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    try store.connection.execute("ANALYZE")
    XCTAssertTrue(try Self.plan(LedgerSchema.selectHistoryCount, on: store.connection).contains("USING PRIMARY KEY (account=?)"))
    for order in [HistoryOrder.insertion, .lastModified] {
      let plan = try Self.plan(LedgerSchema.historyRows(byAccount: true, order: order), on: store.connection)
      XCTAssertFalse(plan.contains("TEMP B-TREE"), plan)
    }
    let product = try Self.plan(
      LedgerSchema.latestTransactions(TransactionMatch(product: "com.example.gems", state: .purchased)), on: store.connection)
    XCTAssertTrue(product.contains("transactions_product_latest (account=? AND product_id=?"), product)
    let chain = try Self.plan(
      LedgerSchema.latestTransactions(TransactionMatch(originalID: PaymentTransaction.ID(1), state: .purchased)), on: store.connection)
    XCTAssertTrue(chain.contains("transactions_chain_latest (original_id=?"), chain)
    for plan in [product, chain] { XCTAssertFalse(plan.contains("TEMP B-TREE"), plan) }
  }
}
