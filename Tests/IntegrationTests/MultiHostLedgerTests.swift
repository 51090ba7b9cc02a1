import Foundation
import PostgreSQLLedger
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

/// The shared ledger across "machines": a database host and two client hosts as network namespaces
/// joined by veth links (``NetworkHosts``), PostgreSQL listening on the database host's link
/// addresses, real `storefront` processes run in the client hosts with `ip netns exec`. The test
/// process itself reads the ledger over the cluster's Unix socket, which no link cut touches.
///
/// Needs root and `ip netns`: skipped with the reason elsewhere, required under `CI=true`.
final class MultiHostLedgerTests: XCTestCase {
  private let coins = "com.jake.sample.ExInAppPurchase.coins100"
  private let shopping = "com.jake.sample.ExInAppPurchase.shopping"

  private var hosts: NetworkHosts?
  private var cluster: PostgreSQLCluster?

  override func setUpWithError() throws {
    let ci = ProcessInfo.processInfo.environment["CI"] == "true"
    if let reason = NetworkHosts.unavailableReason() {
      if ci { XCTFail("CI must run the multi-host tests: \(reason)") }
      throw XCTSkip("multi-host tests skipped: \(reason)")
    }
    guard PostgreSQLCluster.installedBinaries() != nil else {
      if ci { XCTFail("CI must run the multi-host tests: no PostgreSQL server") }
      throw XCTSkip("multi-host tests skipped: no PostgreSQL server (Debian: postgresql)")
    }
    let hosts = try NetworkHosts()
    self.hosts = hosts
    // Every exit path: the cluster stops and the namespaces go, whatever the test did.
    addTeardownBlock { [weak self] in
      self?.cluster?.stop()
      self?.cluster = nil
      self?.hosts?.remove()
      self?.hosts = nil
    }
    cluster = try PostgreSQLCluster(.init(address: hosts.serverAddresses, port: 5432, namespace: hosts.database, trustedNetwork: "10.231.0.0/16"))
  }

  // MARK: - Tests

  /// Two processes on each of two hosts, 50 purchases each, at once: every purchase a process
  /// reports is in the ledger exactly once.
  func testFourProcessesOnTwoHostsBuyingAtOnceLoseAndDuplicateNothing() throws {
    let (database, local) = try makeLedger("fourontwo")
    let directory = try TemporaryDirectory(self)
    let purchases = 50
    let script = (["set dialogs off"] + (0..<purchases).flatMap { _ in ["buy \(coins)", "finish last"] }).joined(separator: "\n") + "\n"
    let running = try (0..<4).map { index -> RunningProcess in
      let host: NetworkHosts.Host = index % 2 == 0 ? .a : .b
      return try start(
        on: host, ["run", "-", "--json", "--data-dir", directory.path("p\(index)"), "--ledger", database(host), "--account", "buyer\(index)"],
        stdin: script, in: directory)
    }
    var reported: [String: Int] = [:]
    for (index, process) in running.enumerated() {
      let result = try process.wait(timeout: 180)
      XCTAssertEqual(result.status, 0, "process \(index): \(result.summary)")
      let bought = Set(Self.purchasedIDs(result, source: "process \(index)"))
      XCTAssertEqual(bought.count, purchases, "process \(index) completed every purchase")
      for id in bought {
        if let other = reported[id] { XCTFail("transaction \(id) reported by processes \(other) and \(index)") }
        reported[id] = index
      }
    }
    let stored = try local.allTransactions().filter { $0.state == .purchased }
    XCTAssertEqual(stored.count, 4 * purchases, "each purchase in the ledger once")
    XCTAssertEqual(Set(stored.map(\.id.description)), Set(reported.keys))
  }

  /// A purchase owned by a storefront on host A (a running `serve`, which holds its owner session)
  /// is left alone by launches on host B while A runs, and while A's link is cut but its database
  /// session is still alive; the server ends that session once TCP keepalives give up (bounded),
  /// and only then does host B take the purchase over. Then the same with SIGKILL instead of a cut.
  func testAPurchaseOnHostAIsTakenOverOnHostBOnlyAfterItsSessionIsGone() throws {
    let (database, local) = try makeLedger("takeover")
    let directory = try TemporaryDirectory(self)
    let hosts = try XCTUnwrap(hosts)
    let asker = try PostgreSQLSessionLock(address: PostgreSQLAddress(local.connectionString), id: "test-asker")
    defer { asker.release() }
    var launches = 0
    func launchOnB(_ script: String = "") throws -> [String] {
      launches += 1
      let result = try start(
        on: .b, ["run", "-", "--json", "--data-dir", directory.path("b\(launches)"), "--ledger", database(.b), "--account", "jake"],
        stdin: script, in: directory
      ).wait(timeout: 120)
      XCTAssertEqual(result.status, 0, result.summary)
      return EventLine.parse(result.stdout, source: "launch \(launches) on B").filter { $0.event == "sheetPresented" }.compactMap(\.transactionID)
    }
    func stored(_ id: String) throws -> PaymentTransaction? {
      try local.store.transactions([try XCTUnwrap(PaymentTransaction.ID(id))]).first
    }
    func ownedByServeOnA(_ label: String) throws -> (id: String, serve: RunningProcess, session: String) {
      let first = try start(
        on: .a, ["run", "-", "--json", "--data-dir", directory.path("a-\(label)"), "--ledger", database(.a), "--account", "jake"],
        stdin: "set dialogs on\nbuy \(shopping)\n", in: directory
      ).wait(timeout: 120)
      XCTAssertEqual(first.status, 0, first.summary)
      let id = try XCTUnwrap(
        EventLine.parse(first.stdout, source: "host A").first { $0.event == "sheetPresented" }?.transactionID, "host A shows its sheet")
      let fifo = directory.path("ready-\(label)")
      XCTAssertEqual(mkfifo(fifo, 0o600), 0)
      let serve = try start(
        on: .a, ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", directory.path("serve-\(label)"), "--ledger", database(.a)],
        stdin: "", in: directory)
      _ = try ReadyFile.address(fromFIFO: fifo)
      let session = try Self.session(of: serve.processIdentifier)
      var transaction = try XCTUnwrap(try stored(id))
      transaction.ownerSession = session
      try local.store.commit([.putTransaction(transaction)])
      XCTAssertTrue(asker.isAlive(session))
      XCTAssertEqual(try launchOnB(), [], "a live owner on host A keeps its purchase")
      return (id, serve, session)
    }

    // The link is cut: A's session lives on at the server until keepalives give up.
    let cut = try ownedByServeOnA("cut")
    try hosts.cut(.a)
    XCTAssertTrue(asker.isAlive(cut.session), "cutting the link does not end the session at once")
    XCTAssertEqual(try launchOnB(), [], "a partitioned owner whose session is alive keeps its purchase")
    XCTAssertEqual(try stored(cut.id)?.ownerSession, cut.session)
    let cutAt = ContinuousClock.now
    XCTAssertTrue(wait(seconds: 90) { !asker.isAlive(cut.session) }, "the server ends a partitioned client's session (keepalives)")
    let gone = ContinuousClock.now - cutAt
    XCTAssertLessThan(gone, .seconds(60), "keepalives end the session in bounded time, took \(gone)")
    XCTAssertEqual(try launchOnB("confirm\nfinish last\n"), [cut.id], "taken over once the session is gone")
    try hosts.restore(.a)
    kill(cut.serve.processIdentifier, SIGKILL)
    _ = try cut.serve.wait(timeout: 30)

    // SIGKILL: the server sees the connection close and ends the session.
    let killed = try ownedByServeOnA("kill")
    kill(killed.serve.processIdentifier, SIGKILL)
    _ = try killed.serve.wait(timeout: 30)
    XCTAssertTrue(wait(seconds: 30) { !asker.isAlive(killed.session) }, "the killed client's session ends")
    XCTAssertEqual(try launchOnB("confirm\nfinish last\n"), [killed.id], "the killed owner's purchase is taken over")
    let bought = try local.store.allTransactions().filter { $0.productID.rawValue == shopping && $0.state == .purchased }
    XCTAssertEqual(Set(bought.map(\.id.description)), [cut.id, killed.id], "each taken-over purchase granted once")
    XCTAssertTrue(bought.allSatisfy(\.isFinished))
  }

  /// Both hosts buy in rounds while PostgreSQL is restarted (immediate stop: every session cut) and
  /// host A's link is cut and restored: every round rides through (its steps reconnect with
  /// back-off, DECISIONS §27) and says so on standard error; every purchase a round reported
  /// is in the ledger once, and no purchase is granted twice.
  func testARestartAndACutLinkLoseNothingAndGrantNothingTwice() throws {
    let (database, local) = try makeLedger("outage")
    let directory = try TemporaryDirectory(self)
    let hosts = try XCTUnwrap(hosts)
    let cluster = try XCTUnwrap(cluster)
    let rounds = 8
    let perRound = 10
    let script = (["set dialogs off"] + (0..<perRound).flatMap { _ in ["buy \(coins)", "finish last"] }).joined(separator: "\n") + "\n"
    let reported = Locked<[String: String]>([:])
    let problems = Locked<[String]>([])
    let finishedRounds = Locked<[NetworkHosts.Host: Int]>([:])
    let messages = Locked("")
    let group = DispatchGroup()
    let binary = try StorefrontBinary.isolated(in: directory.url).executable.path
    let environment = Self.environment(directory)
    for host in NetworkHosts.Host.allCases {
      let namespace = hosts.namespace(host)
      let uri = database(host)
      let home = directory.url
      DispatchQueue.global().async(group: group) {
        for round in 0..<rounds {
          let label = "\(host.rawValue)\(round)"
          do {
            let result = try ChildProcess.start(
              NetworkHosts.ip,
              ["netns", "exec", namespace, binary, "run", "-", "--json", "--data-dir", home.appendingPathComponent(label).path,
               "--ledger", uri, "--account", "buyer-\(host.rawValue)"],
              stdin: Data(script.utf8), environment: environment, workingDirectory: home
            ).wait(timeout: 180)
            for id in Self.purchasedIDs(result, source: label) where !id.isEmpty {
              reported.withLock { seen in
                if let other = seen[id] { problems.withLock { $0.append("transaction \(id) reported by rounds \(other) and \(label)") } }
                seen[id] = label
              }
            }
            messages.withLock { $0 += result.stderr }
            if result.status != 0 { problems.withLock { $0.append("round \(label) failed: \(result.summary)") } }
          } catch {
            problems.withLock { $0.append("round \(label): \(error)") }
          }
          finishedRounds.withLock { $0[host, default: 0] += 1 }
        }
      }
    }
    func finished(_ host: NetworkHosts.Host) -> Int { finishedRounds.withLock { $0[host] ?? 0 } }
    XCTAssertTrue(wait(seconds: 120) { finished(.a) + finished(.b) >= 2 }, "the first rounds end")
    try cluster.restart()
    try hosts.cut(.a)
    // Host A stays cut off while host B gets two more rounds through the restarted server.
    let atCut = finished(.b)
    XCTAssertTrue(wait(seconds: 120) { finished(.b) >= min(rounds, atCut + 2) }, "host B goes on while host A is cut off")
    try hosts.restore(.a)
    XCTAssertEqual(group.wait(timeout: .now() + 400), .success, "every round ends")
    XCTAssertEqual(problems.withLock { $0 }, [])
    let stderr = messages.withLock { $0 }
    XCTAssertTrue(stderr.contains("is unreachable (") && stderr.contains("reconnected after"), "the reconnects are told: \(stderr)")
    XCTAssertFalse(stderr.contains("Error:"), stderr)
    // The restart cut the test's own connection too: a new one reads the outcome.
    let stored = try PostgreSQLLedgerStore(local.connectionString).allTransactions().filter { $0.productID.rawValue == coins }
    let purchased = stored.filter { $0.state == .purchased }
    XCTAssertEqual(Set(purchased.map(\.id.description)).count, purchased.count, "no purchase stored twice")
    let missing = Set(reported.withLock { $0 }.keys).subtracting(purchased.map(\.id.description))
    XCTAssertEqual(missing, [], "every reported purchase is in the ledger")
    XCTAssertEqual(reported.withLock { $0.count }, 2 * perRound * rounds, "every round's purchases went through")
    XCTAssertEqual(purchased.count, 2 * perRound * rounds, "and nothing more was granted")
  }

  // MARK: - Helpers

  /// A shared ledger on a new database: its URI on each host's link, and a store the test reads it
  /// with over the Unix socket.
  private func makeLedger(_ label: String) throws -> ((NetworkHosts.Host) -> String, LocalLedger) {
    let cluster = try XCTUnwrap(cluster)
    let hosts = try XCTUnwrap(hosts)
    let name = "sf_\(label)_\(getpid())"
    _ = try cluster.makeDatabase(name)
    let local = cluster.socketURI(database: name)
    let ledger = LocalLedger(connectionString: local, store: try PostgreSQLLedgerStore(local))
    // connect_timeout bounds a connection attempt over a cut link.
    return ({ host in cluster.uri(database: name, host: hosts.serverAddress(host)) + "?connect_timeout=5" }, ledger)
  }

  private struct LocalLedger {
    var connectionString: String
    var store: PostgreSQLLedgerStore
    func allTransactions() throws -> [PaymentTransaction] { try store.allTransactions() }
  }

  /// Starts `storefront arguments` inside `host`'s namespace, in `directory` (HOME and working directory).
  private func start(on host: NetworkHosts.Host, _ arguments: [String], stdin: String, in directory: TemporaryDirectory) throws
    -> RunningProcess
  {
    let hosts = try XCTUnwrap(hosts)
    let binary = try StorefrontBinary.isolated(in: directory.url)
    let environment = Self.environment(directory)
    return try ChildProcess.start(
      NetworkHosts.ip, ["netns", "exec", hosts.namespace(host), binary.executable.path] + arguments, stdin: Data(stdin.utf8),
      environment: environment, workingDirectory: directory.url)
  }

  private static func environment(_ directory: TemporaryDirectory) -> [String: String] {
    var environment = StorefrontBinary.isolatedEnvironment(home: directory.url)
    environment["NO_COLOR"] = "1"
    // The shared CA's private keys are sealed with the team's key (DECISIONS §26).
    environment["STOREFRONT_KEY_ENCRYPTION_KEY"] = TeamKey.hex
    return environment
  }

  private static func purchasedIDs(_ result: ProcessResult, source: String) -> [String] {
    EventLine.parse(result.stdout, source: source).filter { $0.event == "transactionUpdated" && $0.state == "purchased" }
      .compactMap(\.transactionID)
  }

  /// Waits (bounded) for `condition`, checking it every 50 ms.
  private func wait(seconds: Double, until condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
      if condition() { return true }
      _ = poll(nil, 0, 50)
    }
    return condition()
  }

  /// The storefront's session id of process `pid`: `pid:start time@boot id` from `/proc`.
  private static func session(of pid: pid_t) throws -> String {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    let close = try XCTUnwrap(stat.lastIndex(of: ")"))
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    let boot = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return "\(pid):\(fields[19])@\(boot)"
  }
}
