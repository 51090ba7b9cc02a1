import Foundation
import PostgreSQLLedger
import SQLiteLedger
import SandboxSigning
import StoreEngine

/// `commit_view_*` (issue 35): from a commit by one process's store to the moment another process's
/// screen shows it. The other process is the release storefront TUI on a 120×40 pty, signed in as
/// `bench`, on its Transactions pane; the committing store is a `PaymentQueue` in this process on the
/// same ledger (SQLite data directory, then a shared PostgreSQL ledger), as `storefront run` opens
/// one. Commits alternate: a purchase (the TUI's row shows the new transaction's id) and a clear of
/// the account's history (the TUI says "No transactions yet"). Each is timed from the moment the
/// store's `commit` returned (durable, visible) to the moment the needle's bytes are read from the
/// pty (its whole frame: the redraw burst is one `doupdate`). Baseline in the same run: the same
/// TUI's redraw of its own key press (`1`/`2`, switching panes), write to the pty → the new pane's
/// text read back.
enum CommitViewBenchmark {
  static let keys = ["", "pg_"].flatMap { ledger in
    [
      "commit_view_\(ledger)p50_ms", "commit_view_\(ledger)p99_ms", "commit_view_\(ledger)key_p50_ms",
      "commit_view_\(ledger)key_p99_ms",
    ]
  }
  static let account = "bench"
  static let product: Product.ID = "com.jake.sample.ExInAppPurchase.coins100"

  @MainActor
  static func run(samples: Int, scratch: URL, into report: Report) throws {
    let catalog = try defaultCatalog()
    guard let pty = PtyStorefront.locate(scratch: scratch.appendingPathComponent("sqlite")) else {
      throw BenchError.failed("no release storefront binary next to the benchmark")
    }
    guard let data = pty.environment["STOREFRONT_DATA_DIR"] else { throw BenchError.failed("no data directory") }
    let directory = URL(fileURLWithPath: data, isDirectory: true)
    try measure(prefix: "commit_view_", pty: pty, arguments: [], samples: samples, into: report) {
      try Committer(sqlite: directory, catalog: catalog)
    }
    let server = try SharedLedgerBenchmark.Server()
    defer { server.stop() }
    let uri = try server.makeDatabase("commit_view_\(getpid())")
    guard let shared = PtyStorefront.locate(scratch: scratch.appendingPathComponent("postgresql")) else { return }
    var environment = shared.environment
    environment["STOREFRONT_KEY_ENCRYPTION_KEY"] = AttachedBenchmark.teamKey
    let onPostgreSQL = PtyStorefront(path: shared.path, environment: environment, benchPath: shared.benchPath, scratch: shared.scratch)
    try measure(prefix: "commit_view_pg_", pty: onPostgreSQL, arguments: ["--ledger", uri], samples: samples, into: report) {
      try Committer(postgres: uri, catalog: catalog, ca: scratch.appendingPathComponent("postgresql-ca", isDirectory: true))
    }
  }

  /// The catalog the TUI runs without `--catalog`: the repository's default.
  static func defaultCatalog() throws -> Catalog {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Catalog/Default.storekit")
    return try CatalogDecoder().decode(try Data(contentsOf: url), path: url.path)
  }

  @MainActor
  private static func measure(
    prefix: String, pty: PtyStorefront, arguments: [String], samples: Int, into report: Report, open: () throws -> Committer
  ) throws {
    let tui = try pty.start(["--account", account] + arguments, columns: 120, rows: 40)
    defer { tui.stop() }
    guard tui.read(timeout: 30, until: { $0.firstRange(of: Array("Restore Purchases".utf8)) != nil }) != nil else {
      throw BenchError.failed("the storefront did not draw its first frame")
    }
    let committer = try open()
    defer { committer.close() }
    var generator = SplitMix64(seed: 35)

    // The TUI's own key presses first: Transactions (2) and Store (1) in turn, ending on Transactions.
    var keys: [Double] = []
    for index in 0..<(samples + 4) {
      let (key, needle) = index % 2 == 0 ? ("2", "queue: ") : ("1", "Restore Purchases")
      settle(tui, &generator)
      let mark = tui.output.count
      let sent = tui.elapsedMilliseconds
      tui.send(Array(key.utf8))
      guard let shown = tui.read(timeout: 5, until: { $0.firstRange(of: Array(needle.utf8), from: mark) != nil }) else {
        throw BenchError.failed("\(prefix)key \(key): the TUI did not show '\(needle)' within 5 s")
      }
      if index >= 4 { keys.append(shown - sent) }
    }
    tui.send(Array("2".utf8))

    var latencies: [Double] = []
    var purchases: [Double] = []
    var clears: [Double] = []
    for index in 0..<(samples + 4) {
      settle(tui, &generator)
      let mark = tui.output.count
      let needle: String
      if index % 2 == 0 {
        needle = try committer.purchase().description
      } else {
        try committer.clear()
        needle = "No transactions yet"
      }
      let committed = tui.elapsedMilliseconds - Double(Stopwatch.nanoseconds() - committer.ledger.lastCommitEnded) / 1e6
      guard let shown = tui.read(timeout: 5, until: { $0.firstRange(of: Array(needle.utf8), from: mark) != nil }) else {
        throw BenchError.failed("\(prefix)commit \(index): the TUI did not show '\(needle)' within 5 s of the commit")
      }
      guard index >= 4 else { continue }
      latencies.append(shown - committed)
      if index % 2 == 0 { purchases.append(shown - committed) } else { clears.append(shown - committed) }
    }
    report.set(prefix + "p50_ms", AttachedBenchmark.rank(latencies, 0.50))
    report.set(prefix + "p99_ms", AttachedBenchmark.rank(latencies, 0.99))
    report.set(prefix + "key_p50_ms", AttachedBenchmark.rank(keys, 0.50))
    report.set(prefix + "key_p99_ms", AttachedBenchmark.rank(keys, 0.99))
    report.extra(prefix + "max_ms", latencies.max() ?? .nan)
    report.extra(prefix + "purchase_p50_ms", AttachedBenchmark.rank(purchases, 0.50))
    report.extra(prefix + "purchase_p99_ms", AttachedBenchmark.rank(purchases, 0.99))
    report.extra(prefix + "clear_p50_ms", AttachedBenchmark.rank(clears, 0.50))
    report.extra(prefix + "clear_p99_ms", AttachedBenchmark.rank(clears, 0.99))
    report.extra(prefix + "key_max_ms", keys.max() ?? .nan)
    let ledger = arguments.isEmpty ? "SQLite data directory" : "shared PostgreSQL ledger (loopback TCP, fsync on)"
    report.note(
      prefix + "p99_ms",
      "\(latencies.count) commits (after 4 warm-up ones) by a PaymentQueue in the bench's process on the TUI's \(ledger), alternating a purchase of 100 Coins (dialogs off) and a clear of the account's history: the store's commit returned → the release storefront TUI (another process, on a 120×40 pty, Transactions pane) has drawn the new transaction's id, or 'No transactions yet'. Before each commit the pty is drained until 30 ms pass without output, then 0–50 ms more at random (so commits do not fall in step with the TUI's one-second clock). Nearest-rank percentiles.")
    report.note(
      prefix + "key_p99_ms",
      "Baseline: the same TUI's redraw of its own key press, \(keys.count) presses of 2 and 1 in turn (Transactions and Store panes): write to the pty → the new pane's text read back, drained the same way first.")
  }

  /// Reads the TUI's output until 30 ms pass without any, then waits 0–50 ms more.
  private static func settle(_ tui: PtyProcess, _ generator: inout SplitMix64) {
    tui.drain(quiet: 0.03, timeout: 2)
    Thread.sleep(forTimeInterval: Double(generator.next() % 50) / 1000)
  }

  /// The committing process's store: a `PaymentQueue` on the TUI's ledger, signed in as the TUI's
  /// account, dialogs off, its ledger counted (``CountingLedger/lastCommitEnded``).
  private final class Committer {
    let queue: PaymentQueue
    let ledger: CountingLedger
    private let closing: () -> Void

    init(sqlite directory: URL, catalog: Catalog) throws {
      var counting: CountingLedger?
      let store = try BenchStore.live(in: directory, catalog: catalog, authority: try BenchStore.authority(in: directory)) { base in
        let wrapper = CountingLedger(base)
        counting = wrapper
        return wrapper
      }
      guard let counting else { throw BenchError.failed("the store did not take the counting ledger") }
      queue = store.queue
      ledger = counting
      closing = { store.ledger.close() }
      try prepare()
    }

    init(postgres uri: String, catalog: Catalog, ca: URL) throws {
      let address = PostgreSQLAddress(uri)
      let store = try PostgreSQLLedgerStore(address: address)
      let lock = try PostgreSQLSessionLock.acquire(address: address, id: "commit-view-\(getpid())")
      let authority = try SandboxCertificateAuthority.open(in: ca, validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
      let environment = StoreEnvironment(
        signer: authority.signer(environment: "Sandbox"), passwordHasher: PBKDF2PasswordHasher(), start: Date(), seed: 0,
        session: lock.session)
      ledger = CountingLedger(store)
      queue = try PaymentQueue(catalog: catalog, ledger: ledger, environment: environment)
      closing = {
        lock.release()
        store.close()
      }
      try prepare()
    }

    private func prepare() throws {
      try queue.signIn(CommitViewBenchmark.account)
      try queue.set(.dialogs(false))
    }

    /// Buys 100 Coins; returns the new transaction's id.
    func purchase() throws -> PaymentTransaction.ID {
      let id = try queue.add(Payment(productID: CommitViewBenchmark.product))
      guard try queue.transaction(id)?.state == .purchased else { throw BenchError.failed("the purchase \(id) was not purchased") }
      return id
    }

    func clear() throws { try queue.perform(.clearHistory(account: CommitViewBenchmark.account)) }

    func close() { closing() }
  }
}
