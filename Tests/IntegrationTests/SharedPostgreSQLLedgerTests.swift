import Foundation
import PostgreSQLLedger
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

/// Real `storefront` processes on one PostgreSQL ledger (`--ledger postgresql://…`), each with a
/// data directory of its own as if on its own machine: concurrent purchases each land once, and an
/// abandoned purchase is taken over only once its owner's database session is gone.
final class SharedPostgreSQLLedgerTests: XCTestCase {
  private let coins = "com.jake.sample.ExInAppPurchase.coins100"
  private let shopping = "com.jake.sample.ExInAppPurchase.shopping"

  private func database(_ label: String) throws -> String { try sharedLedgerDatabase(label) }

  /// Four processes, 50 purchases each, at once on a new database (so their first-start migrations
  /// race too): every purchase a process reports is in the ledger exactly once, with ids no two
  /// processes share.
  func testFourProcessesBuyingAtOnceLoseAndDuplicateNothing() throws {
    let uri = try database("concurrent")
    let directory = try TemporaryDirectory(self)
    let purchases = 50
    let key = try TeamKey.file(in: directory)
    let script = (["set dialogs off"] + (0..<purchases).flatMap { _ in ["buy \(coins)", "finish last"] }).joined(separator: "\n") + "\n"
    let results = Locked<[Int: ProcessResult]>([:])
    let failures = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      do {
        let result = try StorefrontBinary.run(
          ["run", "-", "--json", "--data-dir", directory.path("host\(index)"), "--ledger", uri, "--account", "buyer\(index)", "--key-file", key],
          stdin: Data(script.utf8), in: directory, timeout: 120)
        results.withLock { $0[index] = result }
      } catch {
        failures.withLock { $0.append("process \(index): \(error)") }
      }
    }
    XCTAssertEqual(failures.withLock { $0 }, [])
    var reported: [String: Int] = [:]
    for (index, result) in results.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
      XCTAssertEqual(result.status, 0, "process \(index): \(result.summary)")
      let bought = Set(
        EventLine.parse(result.stdout, source: "process \(index)")
          .filter { $0.event == "transactionUpdated" && $0.state == "purchased" }.compactMap(\.transactionID))
      XCTAssertEqual(bought.count, purchases, "process \(index) completed every purchase")
      for id in bought {
        if let other = reported[id] { XCTFail("transaction \(id) reported by processes \(other) and \(index)") }
        reported[id] = index
      }
    }
    let ledger = try PostgreSQLLedgerStore(uri)
    let stored = try ledger.allTransactions().filter { $0.state == .purchased }
    XCTAssertEqual(stored.count, 4 * purchases, "each purchase in the ledger once")
    XCTAssertEqual(Set(stored.map(\.id.description)), Set(reported.keys))
    XCTAssertTrue(stored.allSatisfy(\.isFinished))
  }

  /// The app receipt and `verifyReceipt` read a shared ledger as they read SQLite: the receipt a
  /// client exports lists its purchase, and serve on the same database answers it with status 0.
  func testTheReceiptAndVerifyReceiptReadTheSharedLedger() throws {
    let uri = try database("receipt")
    let directory = try TemporaryDirectory(self)
    let data = directory.path("host")
    let key = try TeamKey.file(in: directory)
    let bought = try StorefrontBinary.run(
      ["run", "-", "--json", "--data-dir", data, "--ledger", uri, "--account", "jake", "--key-file", key],
      stdin: Data("set dialogs off\nbuy \(shopping)\nfinish last\n".utf8), in: directory)
    XCTAssertEqual(bought.status, 0, bought.summary)
    let id = try XCTUnwrap(
      EventLine.parse(bought.stdout, source: "run").first { $0.state == "purchased" }?.transactionID, bought.stdout)

    let exported = try StorefrontBinary.run(["receipt", "--data-dir", data, "--ledger", uri, "--account", "jake", "--key-file", key], in: directory)
    XCTAssertEqual(exported.status, 0, exported.summary)
    let receipt = exported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", data, "--ledger", uri, "--key-file", key], in: directory)
    defer {
      kill(serve.processIdentifier, SIGTERM)
      _ = try? serve.wait(timeout: 30)
    }
    let address = try ReadyFile.address(fromFIFO: fifo)
    let port = try XCTUnwrap(address.split(separator: ":").last.flatMap { UInt16($0) }, address)
    let answer = try VerifyReceiptServeTests.call(port, body: try VerifyReceiptServeTests.body(receipt))
    XCTAssertEqual(answer.http, 200)
    XCTAssertEqual(answer.json["status"] as? Int, 0, "\(answer.json)")
    let inApp = ((answer.json["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]]) ?? []
    XCTAssertEqual(inApp.compactMap { $0["transaction_id"] as? String }, [id])
  }

  /// A purchase left `purchasing` is taken over by a launch only once its owner's database session
  /// is gone: not while a client on "another machine" (another boot id, which `/proc` would call
  /// dead) holds the session's lock, nor while a `storefront serve` owning it runs; at once after
  /// that client lets go, and after the serve is killed with SIGKILL.
  func testAnAbandonedPurchaseIsTakenOverOnlyAfterItsOwnersSessionIsGone() throws {
    let uri = try database("owner")
    let directory = try TemporaryDirectory(self)
    var launches = 0
    let key = try TeamKey.file(in: directory)
    func launch(_ script: String = "") throws -> [String] {
      launches += 1
      let result = try StorefrontBinary.run(
        ["run", "-", "--json", "--data-dir", directory.path("host\(launches)"), "--ledger", uri, "--account", "jake", "--key-file", key],
        stdin: Data(script.utf8), in: directory)
      XCTAssertEqual(result.status, 0, result.summary)
      return EventLine.parse(result.stdout, source: "launch \(launches)").filter { $0.event == "sheetPresented" }
        .compactMap(\.transactionID)
    }
    let ledger = try PostgreSQLLedgerStore(uri)
    func stored(_ id: String) throws -> PaymentTransaction? {
      try ledger.transactions([try XCTUnwrap(PaymentTransaction.ID(id))]).first
    }
    func setOwner(_ id: String, _ owner: String) throws {
      var transaction = try XCTUnwrap(try stored(id))
      transaction.ownerSession = owner
      try ledger.commit([.putTransaction(transaction)])
    }

    let id = try XCTUnwrap(try launch("set dialogs on\nbuy \(shopping)\n").first, "the first launch shows its sheet")
    XCTAssertEqual(try stored(id)?.state, .purchasing)

    // A client elsewhere holds the owner's session: left alone. Once it lets go: taken over.
    let elsewhere = try PostgreSQLSessionLock(address: PostgreSQLAddress(uri), id: "4242:17@another-machine")
    try setOwner(id, elsewhere.id)
    XCTAssertEqual(try launch(), [], "a live session elsewhere keeps its purchase")
    XCTAssertEqual(try stored(id)?.ownerSession, elsewhere.id)
    elsewhere.release()
    XCTAssertEqual(try launch(), [id], "a released session's purchase is shown again")
    XCTAssertNotEqual(try stored(id)?.ownerSession, elsewhere.id)

    // A running `storefront serve` owns it; killed with SIGKILL, its session goes with its connection.
    let fifo = directory.path("ready")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontBinary.start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--data-dir", directory.path("server"), "--ledger", uri, "--key-file", key],
      in: directory)
    _ = try ReadyFile.address(fromFIFO: fifo)
    let serveSession = try Self.session(of: serve.processIdentifier)
    try setOwner(id, serveSession)
    XCTAssertEqual(try launch(), [], "a running serve's purchase is left alone")
    XCTAssertEqual(try stored(id)?.ownerSession, serveSession)
    kill(serve.processIdentifier, SIGKILL)
    _ = try serve.wait(timeout: 30)
    let asker = try PostgreSQLSessionLock(address: PostgreSQLAddress(uri), id: "asker")
    let deadline = ContinuousClock.now + .seconds(30)
    while asker.isAlive(serveSession), ContinuousClock.now < deadline {}
    XCTAssertFalse(asker.isAlive(serveSession), "the server ended the killed client's session")
    XCTAssertEqual(try launch("confirm\nfinish last\n"), [id], "the killed owner's purchase is taken over")
    let bought = try XCTUnwrap(try stored(id))
    XCTAssertEqual(bought.state, .purchased)
    XCTAssertTrue(bought.isFinished)
    XCTAssertEqual(try ledger.allTransactions().filter { $0.productID.rawValue == shopping && $0.state == .purchased }.count, 1)
  }

  /// A server that refuses the connection is named, with what to check, and never with the password;
  /// a `--ledger` that is not a PostgreSQL URI is a usage error that does not repeat it either.
  func testAnUnreachableLedgerIsReportedWithoutThePassword() throws {
    let directory = try TemporaryDirectory(self)
    let uri = "postgresql://qa:hunter2-secret@127.0.0.1:1/team?connect_timeout=5"
    let viaOption = try StorefrontBinary.run(["transactions", "--data-dir", directory.path("data"), "--ledger", uri], in: directory)
    XCTAssertEqual(viaOption.status, 69, viaOption.summary)
    XCTAssertTrue(viaOption.stderr.contains("Cannot reach the ledger database 'postgresql://qa@127.0.0.1:1/team'"), viaOption.stderr)
    XCTAssertFalse((viaOption.stdout + viaOption.stderr).contains("hunter2"), viaOption.summary)
    let bad = try StorefrontBinary.run(["run", "-", "--ledger", "mysql://qa:hunter2@db/x"], in: directory)
    XCTAssertEqual(bad.status, 64, bad.summary)
    XCTAssertFalse((bad.stdout + bad.stderr).contains("hunter2"), bad.summary)
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
