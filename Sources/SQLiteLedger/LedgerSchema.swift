/// The ledger's schema and its forward migrations.
///
/// The version lives in `PRAGMA user_version`. `migrations[n]` takes a database from version `n` to
/// `n + 1`; a new version appends one entry and never edits an old one, so every older ledger can be
/// brought forward step by step.
enum LedgerSchema {
  /// `PRAGMA application_id`, so a foreign SQLite file is not mistaken for a ledger ("SFLG").
  static let applicationID: Int64 = 0x5346_4C47

  /// The newest version this build reads and writes.
  static var currentVersion: Int { migrations.count }

  static let migrations: [String] = [
    // v1: accounts, transactions (the full value as JSON plus the columns queries filter on), values.
    // No foreign keys in v1: a transaction may belong to an account that was never put (the
    // engine's default account), and clearing history must not depend on accounts. The pragma is
    // on for every connection, so references added by later versions are enforced.
    // `seq` keeps the in-memory store's order: transactions in first-insertion order (an upsert keeps
    // its place), accounts in order of their latest put.
    """
    CREATE TABLE accounts (
      name TEXT PRIMARY KEY NOT NULL,
      seq INTEGER NOT NULL,
      json TEXT NOT NULL
    );
    CREATE TABLE transactions (
      seq INTEGER PRIMARY KEY,
      id INTEGER NOT NULL UNIQUE,
      account TEXT NOT NULL,
      product_id TEXT NOT NULL,
      state INTEGER NOT NULL,
      is_finished INTEGER NOT NULL CHECK (is_finished IN (0, 1)),
      original_id INTEGER NOT NULL,
      purchase_date REAL NOT NULL,
      json TEXT NOT NULL
    );
    CREATE INDEX transactions_account ON transactions(account);
    CREATE INDEX transactions_product_id ON transactions(product_id);
    CREATE INDEX transactions_state ON transactions(state);
    CREATE INDEX transactions_is_finished ON transactions(is_finished);
    CREATE INDEX transactions_original_id ON transactions(original_id);
    CREATE INDEX transactions_purchase_date ON transactions(purchase_date);
    CREATE TABLE kv (
      key TEXT PRIMARY KEY NOT NULL,
      value TEXT NOT NULL
    ) WITHOUT ROWID;
    """
  ]

  static let upsertTransaction = """
    INSERT INTO transactions (id, account, product_id, state, is_finished, original_id, purchase_date, json)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
    ON CONFLICT (id) DO UPDATE SET
      account = excluded.account, product_id = excluded.product_id, state = excluded.state,
      is_finished = excluded.is_finished, original_id = excluded.original_id,
      purchase_date = excluded.purchase_date, json = excluded.json
    WHERE transactions.json IS NOT excluded.json
    """

  static let upsertAccount = """
    INSERT INTO accounts (name, seq, json)
    VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM accounts), ?2)
    ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, json = excluded.json
    """

  static let clearHistory = "DELETE FROM transactions WHERE account = ?1"

  static let upsertValue = """
    INSERT INTO kv (key, value) VALUES (?1, ?2)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE kv.value IS NOT excluded.value
    """

  static let selectTransactions = "SELECT id, json FROM transactions ORDER BY seq"
  static let selectTransactionJSON = "SELECT json FROM transactions WHERE id = ?1"
  static let selectAccounts = "SELECT name, json FROM accounts ORDER BY seq"
  static let selectValues = "SELECT key, value FROM kv"
}
