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

  /// A tester's storefront on host A (the TUI in a terminal there) starts a purchase and leaves its
  /// sheet on screen. Launches on host B leave the purchase alone while A runs, and while A's link is
  /// cut but its database session is still alive; the server ends that session once TCP keepalives
  /// give up (bounded), and only then does host B take the purchase over; A's answer once its link
  /// is back changes nothing. Then the same with the TUI's process killed with SIGKILL instead of a cut.
  func testAPurchaseMidSheetOnHostAIsTakenOverOnHostBOnlyAfterItsSessionIsGone() throws {
    let (database, local) = try makeLedger("takeover")
    let directory = try TemporaryDirectory(self)
    let hosts = try XCTUnwrap(hosts)
    let asker = try PostgreSQLSessionLock(address: PostgreSQLAddress(local.connectionString), id: "test-asker")
    defer { asker.release() }

    // The link is cut: A's session lives on at the server until keepalives give up.
    let cut = try sheetOnA(account: "jake", database: database, local: local, asker: asker, directory: directory)
    defer { cut.terminal.stop() }
    try hosts.cut(.a)
    XCTAssertTrue(asker.isAlive(cut.session), "cutting the link does not end the session at once")
    XCTAssertEqual(try launchOnB(as: "jake", database: database, directory: directory).taken, [], "a partitioned owner whose session is alive keeps its purchase")
    XCTAssertEqual(try stored(cut.id, in: local)?.ownerSession, cut.session)
    let cutAt = ContinuousClock.now
    XCTAssertTrue(wait(seconds: 90) { !asker.isAlive(cut.session) }, "the server ends a partitioned client's session (keepalives)")
    let gone = ContinuousClock.now - cutAt
    XCTAssertLessThan(gone, .seconds(60), "keepalives end the session in bounded time, took \(gone)")
    XCTAssertFalse(try cut.terminal.hasExited(), "the partitioned TUI still runs; only its session is gone")
    XCTAssertEqual(
      try launchOnB(as: "jake", "confirm\nfinish last\n", database: database, directory: directory).taken, [cut.id],
      "taken over once the session is gone")
    // The partitioned TUI says what it cannot reach; its late answer, once the link is back, changes nothing.
    try cut.terminal.waitFor("Cannot reach the ledger database", timeout: 60)
    let completedOnB = try XCTUnwrap(try stored(cut.id, in: local))
    XCTAssertTrue(completedOnB.state == .purchased && completedOnB.isFinished, "B completed the purchase it took over")
    try hosts.restore(.a)
    // Answered once A is connected again (an answer while it still reconnects fails as unreachable).
    try cut.terminal.waitUntil("A is connected again with its sheet up", timeout: 60) {
      let screen = try cut.terminal.screen()
      return !screen.contains("ledger: ") && screen.contains("Do you want to buy")
    }
    try cut.terminal.send("Enter")
    try cut.terminal.waitUntil("A's sheet closes", timeout: 30) { !(try cut.terminal.screen().contains("Do you want to buy")) }
    // Refused at commit (the row is no longer A's) or already known from the change feed: A says so.
    try cut.terminal.waitFor("completed on another device", timeout: 30)
    XCTAssertTrue(try cut.terminal.screen().contains("nothing was charged here"), "A says nothing was bought there")
    XCTAssertEqual(try stored(cut.id, in: local), completedOnB, "the purchase stays as B completed it")
    cut.terminal.stop()

    // SIGKILL of the TUI's process (not of tmux): the server sees the connection close and ends the session.
    let killed = try sheetOnA(account: "mina", database: database, local: local, asker: asker, directory: directory)
    defer { killed.terminal.stop() }
    XCTAssertEqual(kill(killed.pid, SIGKILL), 0)
    try killed.terminal.waitUntil("the killed storefront is gone", timeout: 30) { try killed.terminal.hasExited() }
    XCTAssertTrue(wait(seconds: 30) { !asker.isAlive(killed.session) }, "the killed client's session ends")
    XCTAssertEqual(try stored(killed.id, in: local)?.ownerSession, killed.session, "nobody took it before its session was gone")
    XCTAssertEqual(
      try launchOnB(as: "mina", "confirm\nfinish last\n", database: database, directory: directory).taken, [killed.id],
      "the killed owner's purchase is taken over")
    let bought = try local.allTransactions().filter { $0.productID.rawValue == shopping && $0.state == .purchased }
    XCTAssertEqual(Set(bought.map(\.id.description)), [cut.id, killed.id], "each taken-over purchase granted once")
    XCTAssertEqual(bought.count, 2)
    XCTAssertTrue(bought.allSatisfy(\.isFinished))
  }

  /// A live owner is never taken over: the TUI on host A keeps its sheet up for longer than a dead
  /// session takes to be noticed (keepalives, about 19 s) while host B launches again and again; B
  /// never shows the sheet nor hears of the purchase. A then confirms, and the purchase completes on
  /// A, once.
  func testALiveOwnerMidSheetIsNeverTakenOver() throws {
    let (database, local) = try makeLedger("liveowner")
    let directory = try TemporaryDirectory(self)
    let asker = try PostgreSQLSessionLock(address: PostgreSQLAddress(local.connectionString), id: "test-asker")
    defer { asker.release() }
    let owner = try sheetOnA(account: "tess", database: database, local: local, asker: asker, directory: directory)
    defer { owner.terminal.stop() }
    let started = ContinuousClock.now
    var launches = 0
    // Bounded: a launch, then 5 s of watching the session stay alive, until the span passed (at most 20 rounds).
    while ContinuousClock.now - started < Self.longerThanTakeover, launches < 20 {
      launches += 1
      let seen = try launchOnB(as: "tess", database: database, directory: directory)
      XCTAssertEqual(seen.taken, [], "launch \(launches) on B took the live owner's purchase")
      XCTAssertFalse(seen.mentioned.contains(owner.id), "launch \(launches) on B heard of the live owner's purchase")
      XCTAssertFalse(wait(seconds: 5) { !asker.isAlive(owner.session) }, "the live owner's session ended")
    }
    XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, Self.longerThanTakeover)
    XCTAssertTrue(try owner.terminal.screen().contains("Do you want to buy one Remove Ads"), "A's sheet is still up")
    XCTAssertEqual(try stored(owner.id, in: local)?.ownerSession, owner.session)

    try owner.terminal.send("Enter")
    try owner.terminal.waitFor("owned")
    try owner.terminal.waitUntil("the purchase is in the ledger", timeout: 30) { try self.stored(owner.id, in: local)?.state == .purchased }
    let tess = try local.allTransactions().filter { $0.productID.rawValue == shopping }
    XCTAssertEqual(tess.map(\.id.description), [owner.id], "one purchase, no other taken over or made")
    XCTAssertEqual(tess.first?.ownerSession, nil, "a completed purchase has no owner")
    owner.terminal.stop()
  }

  /// Headless: a `storefront run` that exits with its sheet open leaves the purchase owned by a
  /// session that ends with the process, so the next launch anywhere takes it over.
  func testARunThatExitsWithItsSheetOpenReleasesItsPurchase() throws {
    let (database, local) = try makeLedger("runexit")
    let directory = try TemporaryDirectory(self)
    let asker = try PostgreSQLSessionLock(address: PostgreSQLAddress(local.connectionString), id: "test-asker")
    defer { asker.release() }
    let first = try start(
      on: .a, ["run", "-", "--json", "--data-dir", directory.path("a-run"), "--ledger", database(.a), "--account", "jake"],
      stdin: "set dialogs on\nbuy \(shopping)\n", in: directory
    ).wait(timeout: 120)
    XCTAssertEqual(first.status, 0, first.summary)
    let id = try XCTUnwrap(
      EventLine.parse(first.stdout, source: "host A").first { $0.event == "sheetPresented" }?.transactionID, "host A shows its sheet")
    let owner = try XCTUnwrap(try stored(id, in: local)?.ownerSession, "the open sheet's purchase has an owner")
    XCTAssertTrue(wait(seconds: 30) { !asker.isAlive(owner) }, "the run's session ends with it")
    XCTAssertEqual(try launchOnB(as: "jake", "confirm\nfinish last\n", database: database, directory: directory).taken, [id])
    XCTAssertEqual(try stored(id, in: local)?.state, .purchased)
  }

  /// `serve` on host A delivers the notifications of purchases made on host B: the outbox is the
  /// shared ledger's, and A's deliverer hears B's commits through `LISTEN/NOTIFY`. The app's server
  /// is a small HTTP receiver inside host A's namespace (its loopback is A's own).
  func testServeOnHostADeliversNotificationsForPurchasesOnHostB() throws {
    let (database, local) = try makeLedger("notify")
    let directory = try TemporaryDirectory(self)
    let hosts = try XCTUnwrap(hosts)
    let portFile = directory.path("receiver.port")
    let bodies = directory.path("receiver.bodies")
    let receiver = try ChildProcess.start(
      NetworkHosts.ip, ["netns", "exec", hosts.namespace(.a), "python3", "-c", Self.receiverScript, portFile, bodies], stdin: Data(),
      environment: Self.environment(directory), workingDirectory: directory.url)
    defer {
      kill(receiver.processIdentifier, SIGKILL)
      _ = try? receiver.wait(timeout: 30)
    }
    XCTAssertTrue(wait(seconds: 30) { FileManager.default.fileExists(atPath: portFile) }, "the receiver on host A listens")
    let port = try String(contentsOfFile: portFile, encoding: .utf8)
    let url = "http://127.0.0.1:\(port)/hooks"
    let set = try start(
      on: .a, ["notifications", "url", url, "--data-dir", directory.path("a-setter"), "--ledger", database(.a)], stdin: "", in: directory
    ).wait(timeout: 120)
    XCTAssertEqual(set.status, 0, set.summary)
    let fifo = directory.path("ready-notify")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try start(
      on: .a, ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", directory.path("a-serve"), "--ledger", database(.a)],
      stdin: "", in: directory)
    defer {
      kill(serve.processIdentifier, SIGTERM)
      _ = try? serve.wait(timeout: 30)
    }
    _ = try ReadyFile.address(fromFIFO: fifo)

    let purchases = 5
    let script = (["set dialogs off"] + Array(repeating: "buy \(coins)\nfinish last", count: purchases)).joined(separator: "\n") + "\n"
    let bought = try start(
      on: .b, ["run", "-", "--json", "--data-dir", directory.path("b-buyer"), "--ledger", database(.b), "--account", "buyer-b"],
      stdin: script, in: directory
    ).wait(timeout: 120)
    XCTAssertEqual(bought.status, 0, bought.summary)
    let ids = Set(Self.purchasedIDs(bought, source: "host B"))
    XCTAssertEqual(ids.count, purchases)

    func received() -> [[String: Any]] {
      let text = (try? String(contentsOfFile: bodies, encoding: .utf8)) ?? ""
      return text.split(separator: "\n").compactMap { line in
        guard let body = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let jws = body["signedPayload"] as? String
        else { return nil }
        return Self.payload(of: jws)
      }
    }
    XCTAssertTrue(wait(seconds: 60) { received().count >= purchases }, "got \(received().count) of \(purchases) notifications on host A")
    let payloads = received()
    XCTAssertEqual(payloads.count, purchases, "each delivered once")
    XCTAssertEqual(Set(payloads.compactMap { $0["notificationUUID"] as? String }).count, purchases)
    let delivered = Set(payloads.compactMap { payload -> String? in
      guard let data = payload["data"] as? [String: Any], let info = data["signedTransactionInfo"] as? String else { return nil }
      return (Self.payload(of: info)?["transactionId"] as? String)
    })
    XCTAssertEqual(delivered, ids, "the notifications are for host B's purchases")
    // The attempts are recorded just after the POSTs (in batches): wait for the record, bounded.
    XCTAssertTrue(
      wait(seconds: 30) { ((try? local.store.outbox()) ?? []).filter { $0.state == .delivered }.count == purchases },
      "the shared outbox records the deliveries")
    XCTAssertEqual(try local.store.outbox().count, purchases)
  }

  /// A JWS's payload as JSON.
  private static func payload(of jws: String) -> [String: Any]? {
    let parts = jws.split(separator: ".")
    guard parts.count == 3 else { return nil }
    var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    guard let data = Data(base64Encoded: base64) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
  }

  /// The app's server in a host's namespace: answers each POST 200 and appends its body as a line to
  /// `argv[2]`; writes its port to `argv[1]` once it listens.
  private static let receiverScript = """
    import http.server, os, sys
    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with open(sys.argv[2], "ab") as out:
                out.write(body + b"\\n")
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    with open(sys.argv[1] + ".tmp", "w") as port:
        port.write(str(server.server_address[1]))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()
    """

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

  /// Longer than a dead owner's session takes to end at the server (keepalives: 10 + 3 × 3 s).
  private static let longerThanTakeover: Duration = .seconds(25)

  /// The TUI on host A signed in as `account`, with the sheet of a new Remove Ads purchase on screen
  /// (checked on the pane), its purchase in the shared ledger owned by the TUI's session, alive, and
  /// left alone by a launch on host B.
  private func sheetOnA(
    account: String, database: (NetworkHosts.Host) -> String, local: LocalLedger, asker: PostgreSQLSessionLock,
    directory: TemporaryDirectory
  ) throws -> (terminal: HostTerminal, id: String, pid: pid_t, session: String) {
    let hosts = try XCTUnwrap(hosts)
    let binary = try StorefrontBinary.isolated(in: directory.url).executable.path
    let terminal = try HostTerminal(
      namespace: hosts.namespace(.a), executable: binary,
      arguments: ["--data-dir", directory.path("tui-\(account)"), "--ledger", database(.a), "--account", account],
      environment: Self.environment(directory))
    try terminal.waitFor("[ Restore Purchases ]", timeout: 60)
    try terminal.waitFor(account)
    try terminal.send("Enter")  // Remove Ads is the first row
    try terminal.waitFor("Do you want to buy one Remove Ads")
    let pid = try terminal.storefrontPID()
    let session = try Self.session(of: pid)
    // Commit before announce: the sheet on screen means its purchase is in the ledger.
    let open = try local.allTransactions().filter { $0.productID.rawValue == shopping && $0.state == .purchasing && $0.account == account }
    let purchase = try XCTUnwrap(open.first, "the sheet's purchase is in the shared ledger")
    XCTAssertEqual(open.count, 1)
    XCTAssertEqual(purchase.ownerSession, session, "the TUI's session owns the purchase its sheet shows")
    XCTAssertTrue(asker.isAlive(session), "the TUI holds its session")
    XCTAssertEqual(try launchOnB(as: account, database: database, directory: directory).taken, [], "a live owner on host A keeps its purchase")
    XCTAssertTrue(try terminal.screen().contains("Do you want to buy one Remove Ads"), "the sheet stays on A")
    return (terminal, purchase.id.description, pid, session)
  }

  /// `storefront run` on host B as `account` with `script` (a fresh data directory each time): the
  /// purchases whose sheet it showed (taken over), and every transaction id it mentioned.
  private func launchOnB(
    as account: String, _ script: String = "", database: (NetworkHosts.Host) -> String, directory: TemporaryDirectory
  ) throws -> (taken: [String], mentioned: Set<String>) {
    let label = "b-\(UUID().uuidString.prefix(8))"
    let result = try start(
      on: .b, ["run", "-", "--json", "--data-dir", directory.path(label), "--ledger", database(.b), "--account", account],
      stdin: script, in: directory
    ).wait(timeout: 120)
    XCTAssertEqual(result.status, 0, result.summary)
    let events = EventLine.parse(result.stdout, source: "launch \(label) on B")
    return (events.filter { $0.event == "sheetPresented" }.compactMap(\.transactionID), Set(events.compactMap(\.transactionID)))
  }

  private func stored(_ id: String, in local: LocalLedger) throws -> PaymentTransaction? {
    try local.store.transactions([try XCTUnwrap(PaymentTransaction.ID(id))]).first
  }

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

  /// The one environment of every storefront these tests start (`run`, `serve` and the TUI).
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

// MARK: - An app attached to the shared ledger (issue 25)

extension MultiHostLedgerTests {
  /// A program using only Apple's StoreKit API (`storekit-attached-app`) on host B attaches to the
  /// shared ledger; the storefront TUI on host A is its App Store: the sheet names the program,
  /// Enter buys (the program's observer hears purchasing, then purchased, and its finish reaches the
  /// ledger), Escape gives it paymentCancelled.
  func testAnAppOnHostBBuysThroughTheStorefrontTUIOnHostA() throws {
    let hosts = try XCTUnwrap(hosts)
    let (database, local) = try makeLedger("attached")
    let directory = try TemporaryDirectory(self)
    let storefront = try StorefrontBinary.locate()
    let terminal = try HostTerminal(
      namespace: hosts.namespace(.a), executable: storefront.path,
      arguments: ["--data-dir", directory.path("tui"), "--ledger", database(.a), "--account", "mina"],
      environment: Self.environment(directory))
    try terminal.waitFor("[ Restore Purchases ]", timeout: 60)
    var environment = Self.environment(directory)
    environment["STOREFRONT_LEDGER"] = database(.b)
    environment["STOREFRONT_DATA_DIR"] = directory.path("app")
    environment["STOREFRONT_BUNDLE_ID"] = "com.example.hostb"
    let app = storefront.deletingLastPathComponent().appendingPathComponent("storekit-attached-app").path
    func buy() throws -> RunningProcess {
      try ChildProcess.start(
        NetworkHosts.ip, ["netns", "exec", hosts.namespace(.b), app, coins, "1"], environment: environment, workingDirectory: directory.url)
    }

    let confirmed = try buy()
    try terminal.waitFor("For com.example.hostb", timeout: 30)
    try terminal.waitFor("App: com.example.hostb (pid ")
    try terminal.send("Enter")
    let bought = try confirmed.wait(timeout: 60)
    XCTAssertEqual(bought.status, 0, bought.summary)
    let updates = bought.stdout.split(separator: "\n").filter { $0.hasPrefix("updated") }
    XCTAssertEqual(updates.map { $0.split(separator: " ").dropLast().joined(separator: " ") }, ["updated \(coins) purchasing", "updated \(coins) purchased"])
    let id = try XCTUnwrap(updates.last?.split(separator: " ").last.map(String.init))
    let stored = try XCTUnwrap(try self.stored(id, in: local), "the purchase is in the shared ledger")
    XCTAssertEqual(stored.state, .purchased)
    XCTAssertTrue(stored.isFinished, "the program's finishTransaction reached the ledger")
    XCTAssertEqual(stored.account, "mina", "the program buys as the device's account")
    XCTAssertEqual(stored.appBundleID, "com.example.hostb")

    let cancelled = try buy()
    try terminal.waitFor("For com.example.hostb", timeout: 30)
    try terminal.send("Escape")
    let declined = try cancelled.wait(timeout: 60)
    XCTAssertEqual(declined.status, 0, declined.summary)
    XCTAssertTrue(declined.stdout.contains("updated \(coins) failed 2"), declined.stdout)
    terminal.stop()
  }
}

