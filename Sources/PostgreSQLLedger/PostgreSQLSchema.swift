/// The PostgreSQL ledger's schema and its forward migrations.
///
/// The version lives in `storefront_schema`. `migrations[n]` takes a database from version `n` to
/// `n + 1`; a new version appends one entry and never edits an old one. The first client that finds
/// the schema older than its own applies the missing steps in one transaction under
/// ``migrationLock`` (`pg_advisory_xact_lock`), so clients starting at once migrate once.
enum PostgreSQLSchema {
  /// The newest version this build reads and writes.
  static var currentVersion: Int { migrations.count }

  /// The advisory lock key migrations take ("SFMG").
  static let migrationLock: Int64 = 0x5346_4D47
  /// Session advisory locks of owner sessions are keyed by this ("SFSN") in the high 32 bits.
  static let sessionLockSpace: Int64 = 0x5346_534E
  /// The `NOTIFY` channel every commit that changed a row signals, with its transaction id as payload.
  static let channel = "storefront_ledger"

  static let versionTable = """
    CREATE TABLE IF NOT EXISTS storefront_schema (
      only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
      version integer NOT NULL
    )
    """

  /// Ids are `bigint`s holding the `UInt64`'s bit pattern; values are the engine's JSON as text
  /// (PostgreSQL compresses long values itself). `seq` keeps first-insertion order; `changed` is the
  /// stamp of the commit that last wrote a row (v1: a change counter; from v2: the writer's
  /// transaction id), for ``PostgreSQLLedgerStore/changes(since:)``.
  static let migrations: [String] = [
    """
    CREATE TABLE kv (key text PRIMARY KEY, value text NOT NULL);
    INSERT INTO kv (key, value) VALUES ('change-counter', '0');
    CREATE SEQUENCE account_order;
    CREATE TABLE accounts (name text PRIMARY KEY, seq bigint NOT NULL, json text NOT NULL);
    CREATE TABLE transactions (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id bigint NOT NULL UNIQUE,
      account text NOT NULL,
      product_id text NOT NULL,
      state integer NOT NULL,
      is_finished boolean NOT NULL,
      original_id bigint NOT NULL,
      purchase_date double precision NOT NULL,
      product_kind text NOT NULL,
      has_expiry boolean NOT NULL,
      changed bigint NOT NULL,
      json text NOT NULL
    );
    CREATE INDEX transactions_account ON transactions (account, seq);
    CREATE INDEX transactions_unfinished ON transactions (seq) WHERE NOT is_finished;
    CREATE INDEX transactions_original_id ON transactions (original_id);
    CREATE INDEX transactions_changed ON transactions (changed);
    CREATE TABLE chains (
      original_id bigint PRIMARY KEY,
      first_seq bigint NOT NULL,
      current_seq bigint,
      ended boolean NOT NULL DEFAULT false
    );
    CREATE TABLE subscriptions (
      original_id bigint PRIMARY KEY, account text NOT NULL, json text NOT NULL, changed bigint NOT NULL);
    CREATE INDEX subscriptions_changed ON subscriptions (changed);
    CREATE TABLE ask_to_buy (
      id bigint PRIMARY KEY, account text NOT NULL, open boolean NOT NULL, json text NOT NULL, changed bigint NOT NULL);
    CREATE INDEX ask_to_buy_changed ON ask_to_buy (changed);
    CREATE TABLE mass_extensions (
      product_id text NOT NULL, request_id text NOT NULL, json text NOT NULL, PRIMARY KEY (product_id, request_id));
    CREATE TABLE outbox (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      original_id bigint,
      environment text,
      json text NOT NULL,
      state smallint NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
      next_attempt double precision,
      attempts text NOT NULL DEFAULT '[]',
      signed_payload text,
      uuid text
    );
    CREATE INDEX outbox_pending ON outbox (state, next_attempt) WHERE state = 0;
    """,
    // v2: rows are stamped with their writer's transaction id instead of a global counter (commits
    // overlap; see PostgreSQLFeedMark), values too, so the feed sees a moved clock.
    """
    DELETE FROM kv WHERE key = 'change-counter';
    ALTER TABLE kv ADD COLUMN changed bigint NOT NULL DEFAULT 0;
    """,
    // v3: history read a page at a time (issue 23), as SQLite's v7: `last_modified_ms` and
    // `id_key` (the id with its top bit flipped: bigint order is then the id's unsigned order) key
    // the last-modified order; `quantity` and `revoked` keep `consumable_units`
    // (``consumableUnitsTable``). Filled by `backfillHistoryColumns(on:)` in the same transaction
    // (the signed date is inside the JWS's base64 payload). Insertion order is `seq`, per account
    // through `transactions_account` (account, seq). `revoked_ms` (revocation ms, NULL when not
    // revoked) keys Get Refund History's order in a partial index of revoked rows;
    // `subscriptions_account` reads one account's records of some statuses (`status` generated
    // from the record's JSON, so no writer sets it).
    """
    ALTER TABLE transactions ADD COLUMN last_modified_ms bigint NOT NULL DEFAULT 0,
      ADD COLUMN id_key bigint NOT NULL DEFAULT 0, ADD COLUMN quantity integer NOT NULL DEFAULT 1,
      ADD COLUMN revoked boolean NOT NULL DEFAULT false, ADD COLUMN revoked_ms bigint;
    CREATE INDEX transactions_account_last_modified ON transactions (account, last_modified_ms, id_key);
    CREATE INDEX transactions_last_modified ON transactions (last_modified_ms, id_key);
    CREATE INDEX transactions_account_revoked ON transactions (account, revoked_ms, id_key) WHERE revoked_ms IS NOT NULL;
    ALTER TABLE subscriptions ADD COLUMN status text GENERATED ALWAYS AS (json::jsonb ->> 'status') STORED;
    CREATE INDEX subscriptions_account ON subscriptions (account, status, original_id);
    """,
    // v4: the commit log (issue 35, DECISIONS §41): per commit, rows naming what it changed
    // (``CommitLog``), stamped like every row, written in the commit's own transaction. A removal
    // logs the ids it removed itself (``clearHistory``, ``deleteTransaction``, ``deleteSubscription``);
    // the rest of the commit is one row (``insertCommit``). `commit-log-floor`: every trimmed row's
    // stamp is below it; a reader whose snapshot is older starts over from the present.
    """
    CREATE TABLE commit_log (seq bigserial PRIMARY KEY, stamp bigint NOT NULL, entries text NOT NULL);
    CREATE INDEX commit_log_stamp ON commit_log (stamp);
    INSERT INTO kv (key, value, changed) VALUES ('commit-log-floor', '0', 0) ON CONFLICT (key) DO NOTHING;
    """,
  ]

  /// The version whose migration is followed by `backfillHistoryColumns(on:)` and
  /// ``consumableUnitsTable``.
  static let historyColumnsVersion = 3

  /// v3's consumable units per account and product (purchased, not revoked): their quantities'
  /// sum and how many rows it sums, kept by a row trigger on every insert, update and delete of a
  /// transaction, so reading them costs the number of products, not of purchases. Made after the
  /// back-fill, from its columns. Two commits that buy the same account's same product wait for
  /// each other on its row (different accounts never do); a deadlock between two is retried as
  /// any other.
  static let consumableUnitsTable = """
    CREATE TABLE consumable_units (
      account text NOT NULL, product_id text NOT NULL, units bigint NOT NULL, rows bigint NOT NULL,
      PRIMARY KEY (account, product_id));
    INSERT INTO consumable_units (account, product_id, units, rows)
      SELECT account, product_id, sum(quantity), count(*) FROM transactions
      WHERE product_kind = 'consumable' AND state = 1 AND NOT revoked GROUP BY account, product_id;
    CREATE FUNCTION storefront_consumable_units() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        IF OLD.product_kind = 'consumable' AND OLD.state = 1 AND NOT OLD.revoked THEN
          UPDATE consumable_units SET units = units - OLD.quantity, rows = rows - 1
          WHERE account = OLD.account AND product_id = OLD.product_id;
        END IF;
      END IF;
      IF TG_OP <> 'DELETE' THEN
        IF NEW.product_kind = 'consumable' AND NEW.state = 1 AND NOT NEW.revoked THEN
          INSERT INTO consumable_units (account, product_id, units, rows) VALUES (NEW.account, NEW.product_id, NEW.quantity, 1)
          ON CONFLICT (account, product_id) DO UPDATE
            SET units = consumable_units.units + excluded.units, rows = consumable_units.rows + 1;
        END IF;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER consumable_units AFTER INSERT OR DELETE OR UPDATE OF account, product_id, product_kind, state, quantity, revoked
      ON transactions FOR EACH ROW EXECUTE FUNCTION storefront_consumable_units();
    """

  /// The id as the history's sort key: its bit pattern with the top bit flipped, so that bigint
  /// order is the ids' unsigned order (``HistoryOrder/lastModified``'s tie-break).
  static func idKey(_ id: UInt64) -> Int64 { Int64(bitPattern: id ^ (1 << 63)) }

  /// One page of a history as `(seq, id, json, last_modified_ms)` rows; parameters: the account
  /// (when `byAccount`), the cursor's key (when `after`), the row limit.
  static func historyPage(byAccount: Bool, lastModified: Bool, after: Bool) -> String {
    var conditions: [String] = []
    var parameter = 1
    if byAccount {
      conditions.append("account = $\(parameter)")
      parameter += 1
    }
    if after {
      conditions.append(lastModified ? "(last_modified_ms, id_key) > ($\(parameter), $\(parameter + 1))" : "seq > $\(parameter)")
      parameter += lastModified ? 2 : 1
    }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    let key = lastModified ? "last_modified_ms, id_key" : "seq"
    return "SELECT seq, id, json, last_modified_ms FROM transactions\(filter) ORDER BY \(key) LIMIT $\(parameter)"
  }

  /// Consumable units by product, from the table the trigger keeps (``consumableUnitsTable``).
  static let selectConsumableUnits = "SELECT product_id, units FROM consumable_units WHERE account = $1 AND rows > 0"
  static let selectBackfillBatch = "SELECT seq, id, purchase_date, json FROM transactions WHERE seq > $1 ORDER BY seq LIMIT 1000"
  static let updateBackfillBatch = """
    UPDATE transactions t SET last_modified_ms = u.milliseconds, id_key = u.id_key, quantity = u.quantity, revoked = u.revoked,
      revoked_ms = u.revoked_ms
    FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::integer[], $5::boolean[], $6::bigint[])
      AS u(seq, milliseconds, id_key, quantity, revoked, revoked_ms)
    WHERE t.seq = u.seq
    """

  /// The id of the writing transaction (assigned here if not yet), which stamps the rows it writes;
  /// written into the statements, so a commit needs no round trip to learn it first.
  static let stamp = "pg_current_xact_id()::text::bigint"
  /// The stamp, read by the client before its writes, so that a COMMIT lost in flight can be looked
  /// up by it after a reconnect (`pg_xact_status`, DECISIONS §27).
  static let selectStamp = "SELECT pg_current_xact_id()::text::bigint"
  /// When the server started; compared across a reconnect to tell a restart.
  static let selectServerStart = "SELECT pg_postmaster_start_time()::text"
  /// The next transaction id of the server's last checkpoint as a 64-bit id (`epoch:xid`): after a
  /// crash restart, ids from it on were not logged before the crash (and may be handed out again).
  static let selectCheckpointNextID = "SELECT next_xid FROM pg_control_checkpoint()"
  /// Inside a commit: notes its stamp for ``announce`` in a session setting (which reverts when
  /// the transaction fails).
  static let noteAnnouncement = "SELECT set_config('\(announcementSetting)', pg_current_xact_id()::text, false)"
  /// ``noteAnnouncement``, only when a row carries this transaction's stamp (else nothing to
  /// announce): for a commit whose writes change rows only by stamping them (upserts that skip an
  /// identical row).
  static let noteAnnouncementIfStamped = """
    SELECT set_config('\(announcementSetting)', coalesce((SELECT s::text
      FROM (SELECT pg_current_xact_id_if_assigned()::text::bigint AS s) AS x
      WHERE EXISTS (SELECT 1 FROM transactions WHERE changed = s) OR EXISTS (SELECT 1 FROM subscriptions WHERE changed = s)
        OR EXISTS (SELECT 1 FROM ask_to_buy WHERE changed = s) OR EXISTS (SELECT 1 FROM kv WHERE changed = s)), ''), false)
    """
  /// Right after `COMMIT`, in a transaction of its own: `NOTIFY` with the noted stamp, if any. Not
  /// inside the commit: a notifying transaction holds a lock every other notifying transaction of
  /// the server waits for until its commit is flushed, which made commits queue for the disk one
  /// at a time (DECISIONS §29). This one writes no WAL, so it waits for no flush.
  static let announce = """
    SELECT pg_notify('\(channel)', current_setting('\(announcementSetting)')) WHERE current_setting('\(announcementSetting)', true) <> ''
    """
  static let announcementSetting = "storefront.announce"
  /// A read's snapshot and its xmin; the first statement of the read's transaction.
  static let selectSnapshot = "SELECT pg_current_snapshot()::text, pg_snapshot_xmin(pg_current_snapshot())::text"
  /// The largest stamp a snapshot sees: a read's position.
  static let selectNewestStamp = """
    SELECT greatest((SELECT max(changed) FROM transactions), (SELECT max(changed) FROM subscriptions),
      (SELECT max(changed) FROM ask_to_buy), (SELECT max(changed) FROM kv), (SELECT max(stamp) FROM commit_log), 0)
    """
  /// Rows stamped by a transaction the snapshot `$2` did not see (`$1` is its xmin, the prefilter).
  static let unseen = "changed >= $1 AND NOT pg_visible_in_snapshot(changed::text::xid8, $2::pg_snapshot)"

  static let upsertTransaction = """
    INSERT INTO transactions
      (id, account, product_id, state, is_finished, original_id, purchase_date, product_kind, has_expiry, changed, json,
       last_modified_ms, id_key, quantity, revoked, revoked_ms)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, \(stamp), $10, $11, $12, $13, $14, $15)
    ON CONFLICT (id) DO UPDATE SET
      account = excluded.account, product_id = excluded.product_id, state = excluded.state,
      is_finished = excluded.is_finished, original_id = excluded.original_id, purchase_date = excluded.purchase_date,
      product_kind = excluded.product_kind, has_expiry = excluded.has_expiry, changed = excluded.changed, json = excluded.json,
      last_modified_ms = excluded.last_modified_ms, quantity = excluded.quantity, revoked = excluded.revoked,
      revoked_ms = excluded.revoked_ms
    WHERE transactions.json IS DISTINCT FROM excluded.json
    """
  /// Records a non-consumable's row in its chain: the first row stays first; a purchased row with
  /// an expiry becomes the chain's current period. Only when this commit wrote the row (its stamp).
  static let noteChain = """
    INSERT INTO chains (original_id, first_seq, current_seq)
      SELECT $1, seq, CASE WHEN $3::boolean THEN seq END FROM transactions WHERE id = $2 AND changed = \(stamp)
    ON CONFLICT (original_id) DO UPDATE SET
      current_seq = CASE WHEN $3::boolean THEN greatest(coalesce(chains.current_seq, 0), excluded.first_seq)
        ELSE chains.current_seq END
    """
  static let upsertAccount = """
    INSERT INTO accounts (name, seq, json) VALUES ($1, nextval('account_order'), $2)
    ON CONFLICT (name) DO UPDATE SET seq = excluded.seq, json = excluded.json
    """
  static let clearChains = "DELETE FROM chains WHERE original_id IN (SELECT original_id FROM transactions WHERE account = $1)"
  static let clearHistory = """
    WITH gone AS (DELETE FROM transactions WHERE account = $1 RETURNING id)
    \(logRemoval("x", "id"))
    """
  /// Logs the rows a removal's `gone` returned, in its own log row of the commit; affects one row
  /// exactly when the removal removed any.
  private static func logRemoval(_ kind: String, _ column: String) -> String {
    "INSERT INTO commit_log (stamp, entries) SELECT \(stamp), '[[\"\(kind)\",' || string_agg(\(column)::text, ',') || ']]' FROM gone HAVING count(*) > 0"
  }
  /// The rest of a commit's log record (`$1`), when the commit changed a row: `$2` when it surely
  /// did (an account put, an outbox insert), else when a row carries its stamp.
  static let insertCommit = """
    INSERT INTO commit_log (stamp, entries) SELECT \(stamp), $1 WHERE $2::boolean
      OR EXISTS (SELECT 1 FROM transactions WHERE changed = \(stamp)) OR EXISTS (SELECT 1 FROM subscriptions WHERE changed = \(stamp))
      OR EXISTS (SELECT 1 FROM ask_to_buy WHERE changed = \(stamp)) OR EXISTS (SELECT 1 FROM kv WHERE changed = \(stamp))
    """
  /// Keeps the newest ``commitLogKept`` log rows and raises the floor above what it removed.
  static let trimCommitLog = """
    WITH gone AS (DELETE FROM commit_log WHERE seq <= (SELECT max(seq) FROM commit_log) - \(commitLogKept) RETURNING stamp)
    INSERT INTO kv (key, value, changed) SELECT 'commit-log-floor', (max(stamp) + 1)::text, 0 FROM gone HAVING count(*) > 0
    ON CONFLICT (key) DO UPDATE SET value = greatest(kv.value::bigint, excluded.value::bigint)::text
    """
  static let commitLogKept = 4096
  static let selectCommitLogFloor = "SELECT coalesce((SELECT value::bigint FROM kv WHERE key = 'commit-log-floor'), 0)"
  static let selectCommits = """
    SELECT stamp, entries FROM commit_log WHERE stamp >= $1 AND NOT pg_visible_in_snapshot(stamp::text::xid8, $2::pg_snapshot)
    ORDER BY stamp, seq
    """
  static let clearRequests = "DELETE FROM ask_to_buy WHERE account = $1"
  static let upsertSubscription = """
    INSERT INTO subscriptions (original_id, account, json, changed) VALUES ($1, $2, $3, \(stamp))
    ON CONFLICT (original_id) DO UPDATE SET account = excluded.account, json = excluded.json, changed = excluded.changed
    WHERE subscriptions.json IS DISTINCT FROM excluded.json
    """
  /// Only when this commit wrote the subscription record (its stamp).
  static let markChainEnded = """
    UPDATE chains SET ended = $2 WHERE original_id = $1 AND ended IS DISTINCT FROM $2
      AND EXISTS (SELECT 1 FROM subscriptions WHERE original_id = $1 AND changed = \(stamp))
    """
  static let deleteSubscription = """
    WITH gone AS (DELETE FROM subscriptions WHERE original_id = $1 RETURNING original_id)
    \(logRemoval("rs", "original_id"))
    """
  static let upsertRequest = """
    INSERT INTO ask_to_buy (id, account, open, json, changed) VALUES ($1, $2, $3, $4, \(stamp))
    ON CONFLICT (id) DO UPDATE SET account = excluded.account, open = excluded.open, json = excluded.json,
      changed = excluded.changed
    WHERE ask_to_buy.json IS DISTINCT FROM excluded.json
    """
  static let deleteTransaction = """
    WITH gone AS (DELETE FROM transactions WHERE id = $1 RETURNING id)
    \(logRemoval("x", "id"))
    """
  /// After a row was deleted: chains whose first or current row is gone point at what is left, and
  /// a chain with no rows left goes.
  static let repairChains = """
    UPDATE chains SET
      first_seq = coalesce((SELECT min(t.seq) FROM transactions t WHERE t.original_id = chains.original_id), -1),
      current_seq = (SELECT max(c.seq) FROM transactions c
        WHERE c.original_id = chains.original_id AND c.state = 1 AND c.has_expiry)
    WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.seq = chains.first_seq)
      OR (current_seq IS NOT NULL AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.seq = chains.current_seq))
    """
  static let dropEmptyChains = "DELETE FROM chains WHERE first_seq = -1"
  static let upsertMassExtension = """
    INSERT INTO mass_extensions (product_id, request_id, json) VALUES ($1, $2, $3)
    ON CONFLICT (product_id, request_id) DO UPDATE SET json = excluded.json
    WHERE mass_extensions.json IS DISTINCT FROM excluded.json
    """
  static let insertNotification = "INSERT INTO outbox (original_id, environment, json, next_attempt) VALUES ($1, $2, $3, $4)"
  static let upsertValue = """
    INSERT INTO kv (key, value, changed) VALUES ($1, $2, \(stamp))
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, changed = excluded.changed
    WHERE kv.value IS DISTINCT FROM excluded.value
    """

  static let selectWorkingSet = """
    SELECT seq, id, json FROM transactions WHERE NOT is_finished
    UNION
    SELECT t.seq, t.id, t.json FROM chains c JOIN transactions t ON t.seq = c.first_seq WHERE NOT c.ended
    UNION
    SELECT t.seq, t.id, t.json FROM chains c JOIN transactions t ON t.seq = c.current_seq WHERE NOT c.ended
    ORDER BY 1
    """
  static let selectAccounts = "SELECT name, json FROM accounts ORDER BY seq"
  static let selectSubscriptions = "SELECT original_id, json FROM subscriptions ORDER BY original_id"
  static let selectOpenRequests = "SELECT id, json FROM ask_to_buy WHERE open ORDER BY id"
  static let selectValues = "SELECT key, value FROM kv"
  static let selectHistory = "SELECT id, json FROM transactions WHERE account = $1 ORDER BY seq"
  static let selectTransactions = "SELECT id, json FROM transactions ORDER BY seq"
  static let selectTransactionJSON = "SELECT json FROM transactions WHERE id = $1"
  static let selectMassExtension = "SELECT json FROM mass_extensions WHERE product_id = $1 AND request_id = $2"

  static let accountKey = "account"
  static let nextIDKey = "next-transaction-id"
  static let clockKey = "clock"
  static let notificationURLPrefix = "notification-url."
  /// Device values, as in SQLite.
  static let devicePrefix = "device."
}
