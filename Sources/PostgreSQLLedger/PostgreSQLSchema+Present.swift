import StoreEngine

/// Schema v3's part for the present's reads, as SQLite's v7 (``PostgreSQLLedgerStore/transactionCount(account:)``,
/// ``PostgreSQLLedgerStore/historyRows(account:order:offset:limit:)``,
/// ``PostgreSQLLedgerStore/latestTransaction(account:matching:)``).
extension PostgreSQLSchema {
  /// Each account's number of transactions, kept by a row trigger as `consumable_units` is (a
  /// `count(*)` visits every one of the account's rows or index entries). Made after the back-fill,
  /// in the same migration. Two commits that insert or delete rows of the same account wait for
  /// each other on its row until the first commits; different accounts never do, and a deadlock
  /// (two commits writing two accounts in opposite orders) is retried as any other. The indexes
  /// key "the newest transaction of a product / of a chain" by purchase date.
  static let presentTables = """
    CREATE TABLE history_counts (account text PRIMARY KEY, rows bigint NOT NULL);
    INSERT INTO history_counts (account, rows) SELECT account, count(*) FROM transactions GROUP BY account;
    CREATE FUNCTION storefront_history_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.account IS NOT DISTINCT FROM NEW.account THEN RETURN NULL; END IF;
      IF TG_OP <> 'INSERT' THEN
        UPDATE history_counts SET rows = rows - 1 WHERE account = OLD.account;
      END IF;
      IF TG_OP <> 'DELETE' THEN
        INSERT INTO history_counts (account, rows) VALUES (NEW.account, 1)
        ON CONFLICT (account) DO UPDATE SET rows = history_counts.rows + 1;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER history_counts AFTER INSERT OR DELETE OR UPDATE OF account
      ON transactions FOR EACH ROW EXECUTE FUNCTION storefront_history_counts();
    CREATE INDEX transactions_product_latest ON transactions (account, product_id, purchase_date);
    CREATE INDEX transactions_chain_latest ON transactions (original_id, purchase_date);
    """

  static let selectHistoryCount = "SELECT coalesce((SELECT rows FROM history_counts WHERE account = $1), 0)"
  static let selectTotalCount = "SELECT coalesce(sum(rows), 0)::bigint FROM history_counts"

  /// Rows `offset..<offset + limit` of a history as `(id, json)`; parameters: the account (when
  /// `byAccount`), the limit, the offset.
  static func historyRows(byAccount: Bool, order: HistoryOrder) -> String {
    let filter = byAccount ? " WHERE account = $1" : ""
    let key = order == .insertion ? "seq" : "last_modified_ms, id_key"
    let limit = byAccount ? 2 : 1
    return "SELECT id, json FROM transactions\(filter) ORDER BY \(key) LIMIT $\(limit) OFFSET $\(limit + 1)"
  }

  /// The rows of the account `$1` that `match`'s set fields accept at the newest purchase date
  /// among them, as `(id, json)`; parameters: the account, then the product, the original id and
  /// the state, each only when set, in that order.
  static func latestTransactions(_ match: TransactionMatch) -> String {
    var conditions = ["account = $1"]
    var parameter = 2
    for (column, isSet) in [("product_id", match.product != nil), ("original_id", match.originalID != nil), ("state", match.state != nil)]
    where isSet {
      conditions.append("\(column) = $\(parameter)")
      parameter += 1
    }
    let filter = conditions.joined(separator: " AND ")
    return """
      SELECT id, json FROM transactions WHERE \(filter) AND purchase_date =
        (SELECT purchase_date FROM transactions WHERE \(filter) ORDER BY purchase_date DESC LIMIT 1)
      """
  }
}
