import StoreEngine

/// Schema v7's part for the present's reads (``SQLiteLedgerStore/transactionCount(account:)``,
/// ``SQLiteLedgerStore/historyRows(account:order:offset:limit:)``,
/// ``SQLiteLedgerStore/latestTransaction(account:matching:)``): each one statement whose cost does
/// not follow the history's length.
extension LedgerSchema {
  /// Each account's number of transactions, kept by triggers as `consumable_units` is: a
  /// `COUNT(*)` over `transactions_account` walks every one of the account's index entries (100,000
  /// for a long-used tester), this reads one row. Made after the back-fill, in the same migration
  /// (v7). The indexes key "the newest transaction of a product / of a chain" by purchase date, so
  /// that the first matching index entry, read backwards, is the answer.
  static let presentTables = """
    CREATE TABLE history_counts (
      account TEXT PRIMARY KEY NOT NULL,
      rows INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO history_counts (account, rows) SELECT account, count(*) FROM transactions GROUP BY account;
    CREATE TRIGGER history_counts_insert AFTER INSERT ON transactions BEGIN
      INSERT INTO history_counts (account, rows) VALUES (new.account, 1)
      ON CONFLICT (account) DO UPDATE SET rows = rows + 1;
    END;
    CREATE TRIGGER history_counts_delete AFTER DELETE ON transactions BEGIN
      UPDATE history_counts SET rows = rows - 1 WHERE account = old.account;
    END;
    CREATE TRIGGER history_counts_update AFTER UPDATE OF account ON transactions
      WHEN old.account IS NOT new.account
    BEGIN
      UPDATE history_counts SET rows = rows - 1 WHERE account = old.account;
      INSERT INTO history_counts (account, rows) VALUES (new.account, 1)
      ON CONFLICT (account) DO UPDATE SET rows = rows + 1;
    END;
    CREATE INDEX transactions_product_latest ON transactions(account, product_id, purchase_date);
    CREATE INDEX transactions_chain_latest ON transactions(original_id, purchase_date);
    """

  /// The number of transactions of the account `?1`.
  static let selectHistoryCount = "SELECT coalesce((SELECT rows FROM history_counts WHERE account = ?1), 0)"
  /// The number of transactions of every account: one row per account.
  static let selectTotalCount = "SELECT coalesce(sum(rows), 0) FROM history_counts"

  /// Rows `offset..<offset + limit` of a history as `(id, json, is_finished)`: parameters are the account (when
  /// `byAccount`), the limit and the offset. The offset's rows are skipped in the index, not decoded.
  static func historyRows(byAccount: Bool, order: HistoryOrder) -> String {
    let filter = byAccount ? " WHERE account = ?1" : ""
    let key = order == .insertion ? "seq" : "last_modified_ms, id_key"
    let limit = byAccount ? 2 : 1
    return "SELECT id, json, is_finished FROM transactions\(filter) ORDER BY \(key) LIMIT ?\(limit) OFFSET ?\(limit + 1)"
  }

  /// The rows of the account `?1` that `match`'s set fields accept (`?2` the product, `?3` the
  /// original id, `?4` the state, each bound only when set) at the newest purchase date among them,
  /// as `(id, json, is_finished)`: the caller picks the newest by id, since two purchase dates a column rounds
  /// alike still differ in the row. With a chain: `transactions_chain_latest`; with a product:
  /// `transactions_product_latest`; otherwise `transactions_purchase_date` read newest first.
  static func latestTransactions(_ match: TransactionMatch) -> String {
    var conditions = ["account = ?1"]
    if match.product != nil { conditions.append("product_id = ?2") }
    if match.originalID != nil { conditions.append("original_id = ?3") }
    if match.state != nil { conditions.append("state = ?4") }
    let filter = conditions.joined(separator: " AND ")
    return """
      SELECT id, json, is_finished FROM transactions WHERE \(filter) AND purchase_date =
        (SELECT purchase_date FROM transactions WHERE \(filter) ORDER BY purchase_date DESC LIMIT 1)
      """
  }
}
