import StoreEngine

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
    """,
    // v2: typed storage. Subscription records move out of `kv` into their own table; a launch
    // reads only the working set (unfinished rows plus each chain's first and current row, kept in
    // `chains`); JWS headers (with their certificate chains) are stored once in `jws_headers`.
    """
    CREATE TABLE subscriptions (
      original_id INTEGER PRIMARY KEY,
      account TEXT NOT NULL,
      json TEXT NOT NULL,
      changed INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO subscriptions (original_id, account, json)
      SELECT CAST(substr(key, 14) AS INTEGER), coalesce(json_extract(value, '$.account'), ''), value
      FROM kv WHERE key LIKE 'subscription.%' AND value <> '';
    DELETE FROM kv WHERE key LIKE 'subscription.%';
    ALTER TABLE transactions ADD COLUMN product_kind TEXT NOT NULL DEFAULT '';
    ALTER TABLE transactions ADD COLUMN has_expiry INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE transactions ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX transactions_changed ON transactions(changed);
    UPDATE transactions SET product_kind = coalesce(json_extract(json, '$.productKind'), ''),
      has_expiry = (json_extract(json, '$.expiresDate') IS NOT NULL);
    CREATE TABLE chains (
      original_id INTEGER PRIMARY KEY,
      first_seq INTEGER NOT NULL,
      current_seq INTEGER,
      ended INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO chains (original_id, first_seq, current_seq)
      SELECT t.original_id, min(t.seq),
        (SELECT max(c.seq) FROM transactions c
          WHERE c.original_id = t.original_id AND c.state = 1 AND c.has_expiry = 1)
      FROM transactions t WHERE t.product_kind <> 'consumable' GROUP BY t.original_id;
    UPDATE chains SET ended = 1 WHERE original_id IN (
      SELECT original_id FROM subscriptions WHERE json_extract(json, '$.status') IN ('expired', 'revoked'));
    CREATE TABLE jws_headers (
      hash TEXT PRIMARY KEY NOT NULL,
      header TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    // v3: Ask to Buy requests, so a parent's answer scheduled for later survives a relaunch and
    // reaches other processes. Approved requests stay (small) so other processes see the answer.
    """
    CREATE TABLE ask_to_buy (
      id INTEGER PRIMARY KEY,
      account TEXT NOT NULL,
      open INTEGER NOT NULL CHECK (open IN (0, 1)),
      json TEXT NOT NULL,
      changed INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX ask_to_buy_changed ON ask_to_buy(changed);
    """,
    // v4: mass renewal-date extensions (App Store Server API), so their status can be asked for by
    // any process serving the ledger.
    """
    CREATE TABLE mass_extensions (
      product_id TEXT NOT NULL,
      request_id TEXT NOT NULL,
      json TEXT NOT NULL,
      PRIMARY KEY (product_id, request_id)
    ) WITHOUT ROWID;
    """,
    // v5: the outbox of App Store Server Notifications, written in the same commit as their cause.
    // `seq` orders them; the delivery columns belong to the process that serves.
    """
    CREATE TABLE outbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      original_id INTEGER,
      json TEXT NOT NULL,
      state INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
      next_attempt REAL,
      attempts TEXT NOT NULL DEFAULT '[]',
      signed_payload TEXT,
      uuid TEXT
    );
    CREATE INDEX outbox_pending ON outbox(state, next_attempt);
    """,
    // v6: a notification's delivery state out of its outbox row. SQLite rewrites a whole row to
    // change one column, so each send and each attempt rewrote the notification's JSON (~3 KB) and
    // signed payload (~5 KB). The outbox row is now written once (by the commit that queues it);
    // the often-rewritten state is a small row of `outbox_delivery` (made by a trigger in the same
    // commit, with the chain and environment the deliverer's query filters on), and the UUID and
    // payload as first sent one insert into `outbox_sent`.
    """
    CREATE TABLE outbox_delivery (
      seq INTEGER PRIMARY KEY,
      state INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
      next_attempt REAL,
      attempts TEXT NOT NULL DEFAULT '[]',
      original_id INTEGER,
      environment TEXT
    );
    CREATE TABLE outbox_sent (
      seq INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL,
      signed_payload TEXT NOT NULL
    );
    INSERT INTO outbox_delivery (seq, state, next_attempt, attempts, original_id, environment)
      SELECT seq, state, next_attempt, attempts, original_id, json_extract(json, '$.environment') FROM outbox;
    INSERT INTO outbox_sent (seq, uuid, signed_payload)
      SELECT seq, uuid, signed_payload FROM outbox WHERE uuid IS NOT NULL AND signed_payload IS NOT NULL;
    DROP INDEX outbox_pending;
    ALTER TABLE outbox DROP COLUMN state;
    ALTER TABLE outbox DROP COLUMN attempts;
    ALTER TABLE outbox DROP COLUMN signed_payload;
    ALTER TABLE outbox DROP COLUMN uuid;
    CREATE INDEX outbox_delivery_heads ON outbox_delivery(state, original_id);
    CREATE TRIGGER outbox_queued AFTER INSERT ON outbox BEGIN
      INSERT INTO outbox_delivery (seq, next_attempt, original_id, environment)
        VALUES (new.seq, new.next_attempt, new.original_id, json_extract(new.json, '$.environment'));
    END;
    """,
    // v7: history read a page at a time (issue 23). `last_modified_ms` (the row's
    // `lastModifiedMilliseconds`: its JWS's `signedDate`, else its purchase date) and `id_key` (the
    // id with its top bit flipped, so that SQLite's signed order is the id's unsigned order) key
    // the last-modified order; `quantity` and `revoked` keep `consumable_units` (see
    // ``consumableUnitsTable``). The columns are filled by `backfillHistoryColumns()` in the same
    // transaction: a row's JSON is usually deflated and its signed date is inside a base64 JWS
    // payload, which SQL cannot read. Insertion order is `seq` (the rowid), per account through
    // `transactions_account` (which SQLite keys by account, then rowid). `revoked_ms` (the row's
    // revocation date in ms, NULL when it is not revoked) keys Get Refund History's revocation
    // order in a partial index holding revoked rows only; `subscriptions_account` reads one
    // account's records of some statuses (Get All Subscription Statuses), `status` being a
    // column generated from the record's JSON, so no writer has to set it.
    """
    ALTER TABLE transactions ADD COLUMN last_modified_ms INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE transactions ADD COLUMN id_key INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE transactions ADD COLUMN quantity INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE transactions ADD COLUMN revoked INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE transactions ADD COLUMN revoked_ms INTEGER;
    CREATE INDEX transactions_account_last_modified ON transactions(account, last_modified_ms, id_key);
    CREATE INDEX transactions_last_modified ON transactions(last_modified_ms, id_key);
    CREATE INDEX transactions_account_revoked ON transactions(account, revoked_ms, id_key) WHERE revoked_ms IS NOT NULL;
    ALTER TABLE subscriptions ADD COLUMN status TEXT GENERATED ALWAYS AS (json_extract(json, '$.status')) VIRTUAL;
    CREATE INDEX subscriptions_account ON subscriptions(account, status, original_id);
    """,
    // v8: the commit log (issue 35, DECISIONS §41). One row per commit that changed something, at
    // the change counter's new value, naming what the commit changed (``CommitLog``); written in
    // the commit's own transaction. `commit-log-floor` is the newest position trimmed away: a
    // reader behind it starts over from the present. A ledger from before starts its log here.
    """
    CREATE TABLE commit_log (position INTEGER PRIMARY KEY, entries BLOB NOT NULL);
    INSERT INTO kv (key, value)
      SELECT 'commit-log-floor', coalesce((SELECT value FROM kv WHERE key = 'change-counter'), '0')
      WHERE NOT EXISTS (SELECT 1 FROM kv WHERE key = 'commit-log-floor');
    """,
  ]

  /// Work a migration does after its SQL, in the same transaction, by the version it migrates to.
  static let backfills: [Int: @Sendable (SQLiteLedgerStore) throws -> Void] = [
    7: { store in
      try store.backfillHistoryColumns()
      try store.connection.execute(consumableUnitsTable)
      try store.connection.execute(presentTables)
    }
  ]

  /// v7's consumable units per account and product (purchased, not revoked): the sum of their
  /// quantities and how many rows it sums, kept by triggers on every insert, update and delete of
  /// a transaction (an upsert, a refund, `clearHistory`, `deleteTransaction`), so reading them
  /// costs the number of products, not of purchases (a long-used ledger holds tens of thousands
  /// of consumables). Made after the back-fill, from the back-filled columns.
  static let consumableUnitsTable = """
    CREATE TABLE consumable_units (
      account TEXT NOT NULL,
      product_id TEXT NOT NULL,
      units INTEGER NOT NULL,
      rows INTEGER NOT NULL,
      PRIMARY KEY (account, product_id)
    ) WITHOUT ROWID;
    INSERT INTO consumable_units (account, product_id, units, rows)
      SELECT account, product_id, sum(quantity), count(*) FROM transactions
      WHERE product_kind = 'consumable' AND state = 1 AND revoked = 0 GROUP BY account, product_id;
    CREATE TRIGGER consumable_units_insert AFTER INSERT ON transactions
      WHEN new.product_kind = 'consumable' AND new.state = 1 AND new.revoked = 0
    BEGIN
      INSERT INTO consumable_units (account, product_id, units, rows) VALUES (new.account, new.product_id, new.quantity, 1)
      ON CONFLICT (account, product_id) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
    END;
    CREATE TRIGGER consumable_units_delete AFTER DELETE ON transactions
      WHEN old.product_kind = 'consumable' AND old.state = 1 AND old.revoked = 0
    BEGIN
      UPDATE consumable_units SET units = units - old.quantity, rows = rows - 1
      WHERE account = old.account AND product_id = old.product_id;
    END;
    CREATE TRIGGER consumable_units_update
      AFTER UPDATE OF account, product_id, product_kind, state, quantity, revoked ON transactions
      WHEN (old.product_kind = 'consumable' AND old.state = 1 AND old.revoked = 0)
        OR (new.product_kind = 'consumable' AND new.state = 1 AND new.revoked = 0)
    BEGIN
      UPDATE consumable_units SET units = units - old.quantity, rows = rows - 1
      WHERE account = old.account AND product_id = old.product_id
        AND old.product_kind = 'consumable' AND old.state = 1 AND old.revoked = 0;
      INSERT INTO consumable_units (account, product_id, units, rows)
        SELECT new.account, new.product_id, new.quantity, 1
        WHERE new.product_kind = 'consumable' AND new.state = 1 AND new.revoked = 0
      ON CONFLICT (account, product_id) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
    END;
    """

  /// The id as the history's sort key: its bit pattern with the top bit flipped, so that comparing
  /// keys as signed integers (SQLite, PostgreSQL) orders ids as unsigned ones (``HistoryOrder``).
  static func idKey(_ id: PaymentTransaction.ID) -> Int64 {
    Int64(bitPattern: id.rawValue ^ (1 << 63))
  }

  static let upsertTransaction = """
    INSERT INTO transactions
      (id, account, product_id, state, is_finished, original_id, purchase_date, json, product_kind, has_expiry, changed,
       last_modified_ms, id_key, quantity, revoked, revoked_ms)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
    ON CONFLICT (id) DO UPDATE SET
      account = excluded.account, product_id = excluded.product_id, state = excluded.state,
      is_finished = excluded.is_finished, original_id = excluded.original_id,
      purchase_date = excluded.purchase_date, json = excluded.json,
      product_kind = excluded.product_kind, has_expiry = excluded.has_expiry, changed = excluded.changed,
      last_modified_ms = excluded.last_modified_ms, quantity = excluded.quantity, revoked = excluded.revoked,
      revoked_ms = excluded.revoked_ms
    WHERE transactions.json IS NOT excluded.json OR transactions.is_finished IS NOT excluded.is_finished
    """

  static let upsertAccount = """
    INSERT INTO accounts (name, seq, json)
    VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM accounts), ?2)
    ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, json = excluded.json
    """

  static let clearChains = "DELETE FROM chains WHERE original_id IN (SELECT original_id FROM transactions WHERE account = ?1)"
  static let clearHistory = "DELETE FROM transactions WHERE account = ?1"
  static let clearRequests = "DELETE FROM ask_to_buy WHERE account = ?1"
  static let upsertRequest = """
    INSERT INTO ask_to_buy (id, account, open, json, changed) VALUES (?1, ?2, ?3, ?4, ?5)
    ON CONFLICT (id) DO UPDATE SET account = excluded.account, open = excluded.open, json = excluded.json,
      changed = excluded.changed
    WHERE ask_to_buy.json IS NOT excluded.json
    """
  static let selectOpenRequests = "SELECT id, json FROM ask_to_buy WHERE open = 1 ORDER BY id"
  static let deleteTransaction = "DELETE FROM transactions WHERE id = ?1"
  static let upsertMassExtension = """
    INSERT INTO mass_extensions (product_id, request_id, json) VALUES (?1, ?2, ?3)
    ON CONFLICT (product_id, request_id) DO UPDATE SET json = excluded.json WHERE mass_extensions.json IS NOT excluded.json
    """
  static let insertNotification = "INSERT INTO outbox (original_id, json, next_attempt) VALUES (?1, ?2, ?3)"
  static let selectNotifications = "SELECT seq, json FROM outbox WHERE seq > ?1 ORDER BY seq"
  /// A delivery's state (v6); prepared once, as the deliverer writes it for every attempt.
  static let updateDelivery = "UPDATE outbox_delivery SET state = ?2, next_attempt = ?3, attempts = ?4 WHERE seq = ?1"
  /// The UUID and payload as first sent; a later attempt keeps them.
  static let insertSent = "INSERT INTO outbox_sent (seq, uuid, signed_payload) VALUES (?1, ?2, ?3) ON CONFLICT (seq) DO NOTHING"
  static let selectValue = "SELECT value FROM kv WHERE key = ?1"
  /// kv keys `notification-url.<environment>`.
  static let notificationURLPrefix = "notification-url."
  /// Device values (``StoreEngine/LedgerChange/setDeviceValue(key:value:)``) are kv rows under this prefix; empty is none.
  static let devicePrefix = "device."
  static let selectMassExtension = "SELECT json FROM mass_extensions WHERE product_id = ?1 AND request_id = ?2"
  /// After a row was deleted: chains whose first or current row is gone point at what is left, and
  /// a chain with no rows left goes.
  static let repairChains = """
    UPDATE chains SET
      first_seq = coalesce((SELECT min(t.seq) FROM transactions t WHERE t.original_id = chains.original_id), -1),
      current_seq = (SELECT max(c.seq) FROM transactions c
        WHERE c.original_id = chains.original_id AND c.state = 1 AND c.has_expiry = 1)
    WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.seq = chains.first_seq)
      OR (current_seq IS NOT NULL AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.seq = chains.current_seq))
    """
  static let dropEmptyChains = "DELETE FROM chains WHERE first_seq = -1"

  /// Records a non-consumable's row in its chain: the first row stays first; a purchased row with
  /// an expiry becomes the chain's current period.
  static let noteChain = """
    INSERT INTO chains (original_id, first_seq, current_seq)
      SELECT ?1, seq, CASE WHEN ?3 THEN seq END FROM transactions WHERE id = ?2
    ON CONFLICT (original_id) DO UPDATE SET
      current_seq = CASE WHEN ?3 THEN max(coalesce(current_seq, 0), excluded.first_seq) ELSE current_seq END
    """

  static let upsertSubscription = """
    INSERT INTO subscriptions (original_id, account, json, changed) VALUES (?1, ?2, ?3, ?4)
    ON CONFLICT (original_id) DO UPDATE SET account = excluded.account, json = excluded.json, changed = excluded.changed
    WHERE subscriptions.json IS NOT excluded.json
    """
  /// Every commit counts one up; the rows it wrote carry the count, so a reader asks what changed since.
  static let bumpChangeCounter = """
    INSERT INTO kv (key, value) VALUES ('change-counter', '1')
    ON CONFLICT (key) DO UPDATE SET value = CAST(kv.value AS INTEGER) + 1
    """
  static let selectChangeCounter = "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM kv WHERE key = 'change-counter'), 0)"
  static let insertCommit = "INSERT INTO commit_log (position, entries) VALUES (?1, ?2)"
  static let selectCommits = "SELECT position, entries FROM commit_log WHERE position > ?1 ORDER BY position"
  static let selectCommitLogFloor = "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM kv WHERE key = 'commit-log-floor'), 0)"
  /// Trims the log to the commits after `?1` and notes where it starts.
  static let trimCommitLog = "DELETE FROM commit_log WHERE position <= ?1"
  static let noteCommitLogFloor = """
    INSERT INTO kv (key, value) VALUES ('commit-log-floor', CAST(?1 AS TEXT))
    ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE CAST(kv.value AS INTEGER) < CAST(excluded.value AS INTEGER)
    """
  static let selectAccountTransactionIDs = "SELECT id FROM transactions WHERE account = ?1 ORDER BY seq"
  static let selectSubscriptionJSON = "SELECT json FROM subscriptions WHERE original_id = ?1"
  static let selectRequestJSON = "SELECT json FROM ask_to_buy WHERE id = ?1"
  static let selectAccountJSON = "SELECT json FROM accounts WHERE name = ?1"
  static let deleteSubscription = "DELETE FROM subscriptions WHERE original_id = ?1"
  static let selectSubscriptions = "SELECT original_id, json FROM subscriptions ORDER BY original_id"
  static let insertHeader = "INSERT INTO jws_headers (hash, header) VALUES (?1, ?2) ON CONFLICT (hash) DO NOTHING"
  static let selectHeaders = "SELECT hash, header FROM jws_headers"

  /// What a launch needs: unfinished rows, and the first and current row of every chain that still
  /// matters (a non-consumable's or a non-renewing subscription's, or an auto-renewable one whose
  /// record is not expired or revoked). An ended subscription's rows stay in the history.
  static let selectWorkingSet = """
    SELECT seq, id, json, is_finished FROM transactions WHERE is_finished = 0
    UNION
    SELECT t.seq, t.id, t.json, t.is_finished FROM chains c JOIN transactions t ON t.seq = c.first_seq
      WHERE c.ended = 0
    UNION
    SELECT t.seq, t.id, t.json, t.is_finished FROM chains c JOIN transactions t ON t.seq = c.current_seq
      WHERE c.ended = 0
    ORDER BY 1
    """
  /// Marks the chains whose subscription ended (or began again) when their record is written.
  static let markChainEnded = "UPDATE chains SET ended = ?2 WHERE original_id = ?1 AND ended IS NOT ?2"
  static let selectHistory = "SELECT id, json, is_finished FROM transactions WHERE account = ?1 ORDER BY seq"

  /// One page of a history as `(seq, id, json, is_finished, last_modified_ms)` rows: parameters are the account
  /// (when `byAccount`), the cursor's key (when `after`: `seq`, or `last_modified_ms` and `id_key`),
  /// then the row limit; `expiringOnly` keeps the rows with an expiry date. Each variant walks one index: the primary key or `transactions_account`
  /// (account, rowid) for insertion order, `transactions_last_modified` or
  /// `transactions_account_last_modified` for last-modified order.
  /// With `filter`, its conditions by column (``HistoryFilter``; its product, when it names one, is the
  /// parameter after the account).
  static func historyPage(
    byAccount: Bool, order: HistoryOrder, after: Bool, expiringOnly: Bool = false, filter: HistoryFilter? = nil
  ) -> String {
    var conditions: [String] = expiringOnly ? ["has_expiry = 1"] : []
    var parameter = 1
    if byAccount {
      conditions.append("account = ?\(parameter)")
      parameter += 1
    }
    if let filter {
      if filter.purchasedOnly { conditions.append("state = \(TransactionState.purchased.rawValue)") }
      if filter.withoutFinishedConsumables {
        conditions.append("NOT (product_kind = '\(ProductKind.consumable.rawValue)' AND is_finished = 1)")
      }
      if filter.productID != nil {
        conditions.append("product_id = ?\(parameter)")
        parameter += 1
      }
    }
    let key: String
    switch order {
    case .insertion:
      key = "seq"
      if after {
        conditions.append("seq > ?\(parameter)")
        parameter += 1
      }
    case .lastModified:
      key = "last_modified_ms, id_key"
      if after {
        conditions.append("(last_modified_ms, id_key) > (?\(parameter), ?\(parameter + 1))")
        parameter += 2
      }
    }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    return "SELECT seq, id, json, is_finished, last_modified_ms FROM transactions\(filter) ORDER BY \(key) LIMIT ?\(parameter)"
  }

  /// Consumable units by product, from the table the triggers keep (``consumableUnitsTable``).
  static let selectConsumableUnits = "SELECT product_id, units FROM consumable_units WHERE account = ?1 AND rows > 0"

  static let upsertValue = """
    INSERT INTO kv (key, value) VALUES (?1, ?2)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE kv.value IS NOT excluded.value
    """

  static let selectTransactions = "SELECT id, json, is_finished FROM transactions ORDER BY seq"
  static let accountKey = "account"
  static let nextIDKey = "next-transaction-id"
  static let clockKey = "clock"
  static let selectTransactionJSON = "SELECT json, is_finished FROM transactions WHERE id = ?1"
  /// A finish (``StoreEngine/LedgerChange/finishTransaction(_:)``): the flag and the change
  /// counter alone. A row of the same size is overwritten in place, and SQLite writes only the
  /// pages whose bytes differ, so the signed JSON is neither encoded nor written again; no trigger
  /// watches these columns.
  static let finishTransaction = "UPDATE transactions SET is_finished = 1, changed = ?2 WHERE id = ?1 AND is_finished = 0"
  static let selectAccounts = "SELECT name, json FROM accounts ORDER BY seq"
  static let selectValues = "SELECT key, value FROM kv"
}
