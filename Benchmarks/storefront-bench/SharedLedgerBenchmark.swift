import Foundation
import SandboxSigning
import StoreEngine
import StorefrontProcessTestSupport

/// Issue 16's figures: purchase cycles/s (buy, then finish) on one PostgreSQL ledger with
/// `synchronous_commit=on`, for 1, 2, 4 and 8 clients at once, against `pgbench -N` (simple-update)
/// transactions/s on the same server in the same run (before, between and after the storefronts'
/// series; the median, since the shared disk's flush time drifts within minutes).
/// Two kinds of client: whole `storefront run` processes (launch, connect, CA and load included),
/// and long-running storefronts timed from their first cycle to their last (``SharedLedgerDriver``).
///
/// The server is `$STOREFRONT_BENCH_POSTGRES` (a maintenance database URI) when set, else a
/// throwaway cluster this run starts (``PostgreSQLCluster``: fsync on, loopback TCP).
enum SharedLedgerBenchmark {
  static let clientCounts = [1, 2, 4, 8]
  static let keys =
    clientCounts.map { "pg_cycles_per_s_\($0)" } + clientCounts.map { "pg_running_cycles_per_s_\($0)" }
    + ["pgbench_simple_update_tps_1", "pgbench_simple_update_tps_8"]
    + ["pg_cycles_vs_pgbench_1", "pg_cycles_vs_pgbench_8", "pg_cycles_8_vs_1"]
    + ["pg_running_vs_pgbench_1", "pg_running_vs_pgbench_8", "pg_running_8_vs_1"]
    + ["pg_commits_per_s_1", "pg_commits_per_s_8", "pg_commits_vs_pgbench_1", "pg_commits_vs_pgbench_8"]

  struct Plan {
    /// Purchase cycles each process runs, and the repetitions of each client count.
    var cyclesPerClient: Int
    var repeats: Int
    /// Seconds of each pgbench run.
    var pgbenchSeconds: Int

    /// Cycles each long-running storefront runs after its warm-up.
    var runningCycles: Int

    static let quick = Plan(cyclesPerClient: 30, repeats: 1, pgbenchSeconds: 2, runningCycles: 100)
    static let full = Plan(cyclesPerClient: 200, repeats: 3, pgbenchSeconds: 10, runningCycles: 500)
  }

  /// The environment of every `storefront` this benchmark starts: isolated from the user's, with
  /// the team key a PostgreSQL ledger's CA is sealed with.
  static func environment(home: URL) -> [String: String] {
    var environment = StorefrontBinary.isolatedEnvironment(home: home)
    environment["STOREFRONT_KEY_ENCRYPTION_KEY"] = String(repeating: "5eed", count: 16)
    return environment
  }

  static func run(binary: String, plan: Plan, scratch: URL, into report: Report) throws {
    let home = scratch.appendingPathComponent("pgledger")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let server = try Server()
    defer { server.stop() }
    let settings = try server.tool("psql", ["-Atc", "SELECT version(), current_setting('synchronous_commit'), current_setting('fsync')", server.maintenance])
    report.extra("pg_server", settings.stdout.trimmingCharacters(in: .whitespacesAndNewlines))

    let coins = "com.jake.sample.ExInAppPurchase.coins100"
    let bench = try server.makeDatabase("sfpgbench_\(getpid())")
    let initialized = try server.tool("pgbench", ["-i", "-q", "-s", "1", bench])
    guard initialized.status == 0 else { throw BenchError.failed("pgbench -i failed: \(initialized.stderr)") }
    var pgbenchRuns: [Int: [Double]] = [:]
    for clients in [1, 8] { pgbenchRuns[clients, default: []].append(try pgbench(server, bench, clients: clients, seconds: plan.pgbenchSeconds)) }
    let script = (["set dialogs off"] + (0..<plan.cyclesPerClient).flatMap { _ in ["buy \(coins)", "finish last"] })
      .joined(separator: "\n") + "\n"
    var perClients: [Int: Double] = [:]
    var commitRates: [Int: Double] = [:]
    var commitsPerCycle: [Int: Double] = [:]
    var round = 0
    for clients in clientCounts {
      var rates: [Double] = []
      var commits: [Double] = []
      var perCycle: [Double] = []
      var writingPerCycle: [Double] = []
      for _ in 0..<plan.repeats {
        round += 1
        let ledger = try server.makeDatabase("sfbench_\(getpid())_\(round)")
        let firstXID = try server.nextTransactionID()
        let firstCommit = try server.ledgerCommits(ledger)
        let started = ContinuousClock.now
        let processes = try (0..<clients).map { index in
          try ChildProcess.start(
            binary,
            ["run", "-", "--data-dir", home.appendingPathComponent("r\(round)c\(index)").path, "--ledger", ledger, "--account", "buyer\(index)"],
            stdin: Data(script.utf8), environment: environment(home: home))
        }
        for process in processes {
          let result = try process.wait(timeout: 600)
          guard result.status == 0 else { throw BenchError.failed("storefront run on PostgreSQL failed: \(result.summary)") }
        }
        let elapsed = ContinuousClock.now - started
        let writing = try server.nextTransactionID() - firstXID
        let committed = try server.ledgerCommits(ledger) - firstCommit
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let cycles = Double(clients * plan.cyclesPerClient)
        rates.append(cycles / seconds)
        commits.append(Double(committed) / seconds)
        perCycle.append(Double(committed) / cycles)
        writingPerCycle.append(Double(writing) / cycles)
      }
      if [1, 8].contains(clients) {
        let sample = Sample(values: commits, unit: "commits/s")
        report.record("PostgreSQL durable commits/s, \(clients) process(es) × \(plan.cyclesPerClient) cycles (storefront run --ledger)", sample)
        commitRates[clients] = sample.median
        commitsPerCycle[clients] = Sample(values: perCycle, unit: "commits/cycle").median
        report.extra("pg_write_transactions_per_cycle_\(clients)", Sample(values: writingPerCycle, unit: "per cycle").median)
      }
      let sample = Sample(values: rates, unit: "cycles/s")
      report.record("PostgreSQL purchase cycles/s, \(clients) process(es) × \(plan.cyclesPerClient) (storefront run --ledger)", sample)
      report.set("pg_cycles_per_s_\(clients)", sample.median)
      perClients[clients] = sample.median
    }

    for clients in [1, 8] { pgbenchRuns[clients, default: []].append(try pgbench(server, bench, clients: clients, seconds: plan.pgbenchSeconds)) }
    let running = try runLongRunning(server: server, plan: plan, home: home, product: coins, into: report)

    for clients in [1, 8] { pgbenchRuns[clients, default: []].append(try pgbench(server, bench, clients: clients, seconds: plan.pgbenchSeconds)) }
    for clients in [1, 8] {
      let runs = Sample(values: pgbenchRuns[clients] ?? [], unit: "tps")
      let tps = runs.median
      report.record("pgbench -N (simple-update) tps, \(clients) client(s), \(plan.pgbenchSeconds) s, before, between, after", runs)
      report.set("pgbench_simple_update_tps_\(clients)", tps)
      if let cycles = perClients[clients] { report.set("pg_cycles_vs_pgbench_\(clients)", cycles / tps) }
      if let cycles = running[clients] { report.set("pg_running_vs_pgbench_\(clients)", cycles / tps) }
      if let commits = commitRates[clients] {
        report.set("pg_commits_per_s_\(clients)", commits)
        report.set("pg_commits_vs_pgbench_\(clients)", commits / tps)
        report.extra("pg_commits_per_cycle_\(clients)", commitsPerCycle[clients] ?? .nan)
      }
      if let commits = report.extras["pg_running_commits_per_s_\(clients)"] as? Double {
        report.extra("pg_running_commits_vs_pgbench_\(clients)", commits / tps)
      }
    }
    if let one = perClients[1], let eight = perClients[8] { report.set("pg_cycles_8_vs_1", eight / one) }
    if let one = running[1], let eight = running[8] { report.set("pg_running_8_vs_1", eight / one) }
    report.note(
      "pg_cycles_per_s_1",
      "Wall time of whole processes (launch, connect, a new data directory's CA included); a cycle is buy + finish (2 commits).")
    let commitsHow =
      "Ledger commits/s of the same whole-process runs as pg_cycles_per_s_N (launch included): the commits the storefronts made, counted in the run's own database (its commit_log's bigserial, after minus before: one row per commit that changed something, in that commit's transaction), over the same wall time; against pgbench -N's tps, each of whose transactions is one flushed commit. pg_commits_per_cycle_N: about 2 (buy and finish) plus the launch's. pg_write_transactions_per_cycle_N is the server's own count of writing transactions over the run (pg_snapshot_xmax(pg_current_snapshot()), after minus before): about 4, since each ledger commit is followed by a NOTIFY in a transaction of its own, which takes a transaction id but writes no WAL before its commit record and so waits for no flush (DECISIONS §29); those are not counted as commits. Id reservations (one per 64 ids) are write transactions not in the log, so not counted either."
    for key in ["pg_commits_per_s_1", "pg_commits_vs_pgbench_1"] { report.note(key, commitsHow) }
    report.note(
      "pg_running_cycles_per_s_1",
      "Long-running storefronts in the bench's process (one thread, ledger connection and session lock each; PaymentQueue + "
        + "ScenarioRunner + PostgreSQLLedgerStore + the ES256 signer), timed from the first cycle to the last after a warm-up cycle.")
  }

  /// The long-running figure for each client count, on a fresh database each.
  private static func runLongRunning(
    server: Server, plan: Plan, home: URL, product: String, into report: Report
  ) throws -> [Int: Double] {
    let catalogURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Catalog/Default.storekit")
    let catalog = try CatalogDecoder().decode(try Data(contentsOf: catalogURL), path: catalogURL.path)
    let ca = home.appendingPathComponent("running-ca", isDirectory: true)
    let authority = try SandboxCertificateAuthority.open(in: ca, validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
    let offerKey = try PromotionalOfferKey.open(in: ca)
    var rates: [Int: Double] = [:]
    for clients in clientCounts {
      var samples: [Double] = []
      var commits: [Double] = []
      for attempt in 0..<plan.repeats {
        let ledger = try server.makeDatabase("sfrun_\(getpid())_\(clients)_\(attempt)")
        let measured = try SharedLedgerDriver.cyclesPerSecond(
          ledger: ledger, clients: clients, cycles: plan.runningCycles, catalog: catalog, authority: authority,
          offerKey: offerKey, product: product, count: { try server.ledgerCommits(ledger) })
        samples.append(measured.cycles)
        commits.append(measured.commits)
      }
      // The same count as pg_commits_per_s_N, over the timed span of the long-running storefronts.
      let commitRate = Sample(values: commits, unit: "commits/s").median
      report.extra("pg_running_commits_per_s_\(clients)", commitRate)
      report.extra("pg_running_commits_per_cycle_\(clients)", commitRate / Sample(values: samples, unit: "cycles/s").median)
      let sample = Sample(values: samples, unit: "cycles/s")
      report.record("PostgreSQL purchase cycles/s, \(clients) long-running storefront(s) × \(plan.runningCycles)", sample)
      report.set("pg_running_cycles_per_s_\(clients)", sample.median)
      rates[clients] = sample.median
    }
    return rates
  }

  /// One `pgbench -N` run's transactions/s.
  private static func pgbench(_ server: Server, _ database: String, clients: Int, seconds: Int) throws -> Double {
    let result = try server.tool(
      "pgbench", ["-N", "-c", String(clients), "-j", String(clients), "-T", String(seconds), database],
      timeout: TimeInterval(seconds + 120))
    guard result.status == 0, let tps = tps(in: result.stdout) else {
      throw BenchError.failed("pgbench -N -c \(clients) failed: \(result.stderr) \(result.stdout)")
    }
    return tps
  }

  /// pgbench's `tps = N (without initial connection time)`.
  static func tps(in output: String) -> Double? {
    for line in output.split(separator: "\n") where line.hasPrefix("tps = ") {
      return Double(line.dropFirst(6).prefix { $0.isNumber || $0 == "." })
    }
    return nil
  }

  /// The server the figures are measured on.
  final class Server {
    let maintenance: String
    private let cluster: PostgreSQLCluster?
    private let binaries: String

    init() throws {
      guard let binaries = PostgreSQLCluster.installedBinaries() else {
        throw BenchError.failed("no PostgreSQL server or pgbench (Debian: postgresql); run scripts/setup")
      }
      self.binaries = binaries
      if let given = ProcessInfo.processInfo.environment["STOREFRONT_BENCH_POSTGRES"], !given.isEmpty {
        maintenance = given
        cluster = nil
      } else {
        let cluster = try PostgreSQLCluster(.init(settings: ["synchronous_commit=on", "fsync=on"]))
        self.cluster = cluster
        maintenance = cluster.uri
      }
    }

    func makeDatabase(_ name: String) throws -> String {
      let result = try tool("createdb", ["--maintenance-db=\(maintenance)", name])
      guard result.status == 0 else { throw BenchError.failed("createdb \(name) failed: \(result.stderr)") }
      let parts = maintenance.split(separator: "/", omittingEmptySubsequences: false)
      return parts.dropLast().joined(separator: "/") + "/" + name
    }

    func tool(_ name: String, _ arguments: [String], timeout: TimeInterval = 120) throws -> ProcessResult {
      try ChildProcess.run(binaries + "/" + name, arguments, timeout: timeout)
    }

    func stop() { cluster?.stop() }

    /// How many commits the ledger at `uri` has logged so far: its `commit_log` sequence (0 before the
    /// first launch made the table). The log is trimmed, its sequence never goes back.
    func ledgerCommits(_ uri: String) throws -> Int64 {
      let sql = "SELECT coalesce((SELECT last_value FROM pg_sequences WHERE sequencename = 'commit_log_seq_seq'), 0)"
      let result = try tool("psql", ["-Atc", sql, uri])
      guard result.status == 0, let value = Int64(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw BenchError.failed("psql could not read the commit log's sequence: \(result.stderr)")
      }
      return value
    }

    /// The id the cluster will give its next writing transaction (`pg_snapshot_xmax` of a snapshot
    /// taken now; the query itself writes nothing, so it takes no id).
    func nextTransactionID() throws -> Int64 {
      let result = try tool("psql", ["-Atc", "SELECT pg_snapshot_xmax(pg_current_snapshot())", maintenance])
      guard result.status == 0, let value = Int64(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw BenchError.failed("psql could not read the next transaction id: \(result.stderr)")
      }
      return value
    }
  }
}
