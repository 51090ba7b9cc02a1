import Foundation
import StoreEngine
import XCTest

@testable import PostgreSQLLedger

/// Schema v3 (history pages) on PostgreSQL: a v2 database with data is migrated in one transaction
/// and then pages and counts as one written by v3 does.
final class PostgreSQLHistoryMigrationTests: XCTestCase {
  private static let historyColumns = """
    SELECT string_agg(id || ' ' || last_modified_ms || ' ' || id_key || ' ' || quantity || ' ' || revoked || ' ' || coalesce(revoked_ms::text, '-'), ';' ORDER BY seq)
    FROM transactions
    """

  func testAVersion2DatabaseIsMigratedAndPagesAsWritten() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "history-migration")
    let reference = InMemoryLedgerStore()
    let written: String?
    do {
      let store = try PostgreSQLLedgerStore(uri)
      defer { store.close() }
      for batch in HistoryScript(seed: 11, steps: 40).batches {
        try store.commit(batch)
        try reference.commit(batch)
      }
      written = try store.connection.execute(Self.historyColumns).text(0, 0)
      // Back to v2 as a v2 build left it: without v3's columns, indexes, table and trigger.
      try store.connection.executeScript(
        """
        DROP TRIGGER consumable_units ON transactions; DROP FUNCTION storefront_consumable_units();
        DROP TABLE consumable_units;
        DROP TRIGGER history_counts ON transactions; DROP FUNCTION storefront_history_counts(); DROP TABLE history_counts;
        DROP INDEX transactions_product_latest; DROP INDEX transactions_chain_latest;
        DROP INDEX transactions_account_last_modified; DROP INDEX transactions_last_modified;
        DROP INDEX transactions_account_revoked; DROP INDEX subscriptions_account;
        ALTER TABLE transactions DROP COLUMN last_modified_ms, DROP COLUMN id_key, DROP COLUMN quantity, DROP COLUMN revoked,
          DROP COLUMN revoked_ms;
        ALTER TABLE subscriptions DROP COLUMN status;
        DROP TABLE commit_log; DELETE FROM kv WHERE key = 'commit-log-floor';
        UPDATE storefront_schema SET version = 2;
        """)
    }
    XCTAssertNotNil(written)
    let migrated = try PostgreSQLLedgerStore(uri)
    XCTAssertEqual(
      try migrated.connection.execute("SELECT version FROM storefront_schema").int64(0, 0), Int64(PostgreSQLLedgerStore.schemaVersion))
    XCTAssertEqual(try migrated.connection.execute(Self.historyColumns).text(0, 0), written, "the back-fill stores what a v3 commit stores")
    try LedgerStoreConformance.assertPagesMatch(migrated, reference, "migrated from v2")
    try LedgerStoreConformance.assertPresentReadsMatch(migrated, reference, "migrated from v2")
  }
}
