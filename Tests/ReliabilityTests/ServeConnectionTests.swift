import Foundation
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

/// The real `storefront serve` against clients that misbehave at the connection level (stalling
/// half-way, opening more connections than the limit), under SIGTERM with requests in flight, and
/// with the ledger held by a writer. After each, the server still answers a good request.
final class ServeConnectionTests: XCTestCase {
  /// `GET` of an id the ledger does not hold: Apple's 404 4040010 after a real ledger read.
  private func goodRequest(_ fixture: ServeFixture, id: String = "2000000000000001") throws -> String {
    "GET /inApps/v1/transactions/\(id) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(try fixture.authorization())\r\n\r\n"
  }

  private func assertServes(_ port: UInt16, _ request: String, status: Int = 404, _ message: String, line: UInt = #line) throws {
    let connection = try RawHTTPConnection(port: port)
    try connection.send(request)
    XCTAssertEqual(try connection.receive(timeout: 30).status, status, message, line: line)
  }

  func testAClientThatStallsMidRequestIsClosedAfterTheTimeoutWhileOthersAreServed() throws {
    let fixture = try ServeFixture(self)
    let (serve, port) = try fixture.start(["--connection-timeout", "1"])
    let good = try goodRequest(fixture)
    let halfHeaders = try RawHTTPConnection(port: port)
    try halfHeaders.send("GET /inApps/v1/transactions/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthori")
    let halfBody = try RawHTTPConnection(port: port)
    try halfBody.send(
      "PUT /inApps/v2/transactions/consumption/1 HTTP/1.1\r\nHost: x\r\nAuthorization: \(try fixture.authorization())\r\n"
        + "Content-Length: 100\r\n\r\n{\"customerConsented\":")
    let silent = try RawHTTPConnection(port: port)
    // A stalled client holds only its own connection (a thread each).
    try assertServes(port, good, "while clients stall")
    for (name, connection) in [("half the headers", halfHeaders), ("half the body", halfBody), ("nothing at all", silent)] {
      XCTAssertTrue(try connection.closesWithoutAnswer(timeout: 15), "\(name): not closed by the server")
    }
    try assertServes(port, good, "after the stalled clients")
    let result = try ServeFixture.stop(serve)
    XCTAssertFalse(result.stdout.contains("/inApps/v1/transactions/1 "), "a stalled request reached the handler")
  }

  func testConnectionsPastTheLimitGetApples429WithConnectionCloseAndServingResumes() throws {
    let fixture = try ServeFixture(self)
    let (serve, port) = try fixture.start(["--connection-limit", "2"])
    let good = try goodRequest(fixture)
    var held: [RawHTTPConnection] = []
    for _ in 0..<2 {
      let connection = try RawHTTPConnection(port: port)
      try connection.send(good)
      XCTAssertEqual(try connection.receive(timeout: 30).status, 404)
      held.append(connection)
    }
    let extra = try RawHTTPConnection(port: port)
    try extra.send(good)
    let refused = try extra.receive(timeout: 30)
    XCTAssertEqual(refused.status, 429)
    XCTAssertEqual(refused.headers["content-type"], "application/json")
    XCTAssertEqual(refused.headers["connection"]?.lowercased(), "close")
    XCTAssertEqual(refused.text, #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#)
    XCTAssertTrue(try extra.closesWithoutAnswer(timeout: 15))
    // The held connections still work, then leave.
    try held[0].send(good)
    XCTAssertEqual(try held[0].receive(timeout: 30).status, 404)
    held.removeAll()
    // libmicrohttpd counts a connection closed once its thread has seen it close: bounded retries,
    // each answered at once (429 or 404), no sleeping.
    var status = 0
    for _ in 0..<500 where status != 404 {
      let connection = try RawHTTPConnection(port: port)
      try connection.send(good)
      status = try connection.receive(timeout: 30).status
      XCTAssertTrue(status == 404 || status == 429, "\(status)")
    }
    XCTAssertEqual(status, 404, "serving did not resume after the connections closed")
    _ = try ServeFixture.stop(serve)
  }

  func testSIGTERMWithRequestsInFlightStopsCleanlyAndLeavesTheLedgerWhole() throws {
    let fixture = try ServeFixture(self)
    let bought = try StorefrontProcess.run(
      ["run", "-", "--data-dir", fixture.data.path],
      input: Data("account backend\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.shopping\n".utf8))
    XCTAssertEqual(bought.status, 0, bought.stderr)
    let (serve, port) = try fixture.start()
    let request = try goodRequest(fixture, id: "2000000000000001")
    let clients = 4
    let answered = Locked([Int](repeating: 0, count: clients))
    let problems = Locked([String]())
    let warmedUp = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for client in 0..<clients {
      DispatchQueue.global().async(group: group) {
        var signalled = false
        defer { if !signalled { warmedUp.signal() } }
        guard let connection = try? RawHTTPConnection(port: port) else { return }
        // Keep-alive requests until the server goes away; every answer must be whole and Apple's.
        for count in 0..<2_000 {
          do {
            try connection.send(request)
            let response = try connection.receive(timeout: 30)
            if response.status != 200 { problems.withLock { $0.append("status \(response.status)") } }
          } catch let failure as RawHTTPConnection.Failure {
            if failure.description.contains("inside a body") || failure.description.contains("bad status") {
              problems.withLock { $0.append(failure.description) }
            }
            return
          } catch {
            return
          }
          answered.withLock { $0[client] = count + 1 }
          if count == 20 {
            signalled = true
            warmedUp.signal()
          }
        }
      }
    }
    for _ in 0..<clients { XCTAssertEqual(warmedUp.wait(timeout: .now() + 60), .success, "a client did not get going") }
    let result = try ServeFixture.stop(serve)
    XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "a client still waits after serve stopped")
    XCTAssertEqual(problems.withLock { $0 }, [])
    XCTAssertGreaterThan(answered.withLock { $0.reduce(0, +) }, clients * 20)
    XCTAssertEqual(result.stdout.split(separator: "\n").last, #"{"event":"stopped"}"#)
    XCTAssertEqual(try LedgerView.integrity(fixture.data), "ok")
    // The data directory serves again at once.
    let (again, port2) = try fixture.start()
    try assertServes(port2, request, status: 200, "after the restart")
    _ = try ServeFixture.stop(again)
  }

  func testSIGTERMRightAfterTheReadyFileStopsServeEvenOnABusyMachine() throws {
    let fixture = try ServeFixture(self)
    // Busy cores widen the window in which a signal could come before serve listens for it.
    let spinning = Locked(true)
    let spinners = DispatchGroup()
    for _ in 0..<4 {
      spinners.enter()
      Thread.detachNewThread {
        defer { spinners.leave() }
        var count = 0
        while spinning.withLock({ $0 }) { count &+= 1 }
      }
    }
    defer {
      spinning.withLock { $0 = false }
      _ = spinners.wait(timeout: .now() + 10)
    }
    for round in 0..<40 {
      // Text mode: its start line is quicker than the JSON one, so the window is wider.
      let (serve, _) = try fixture.start(json: false)
      XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
      let result = try serve.wait(timeout: 10)
      XCTAssertEqual(result.status, 0, "round \(round): \(result.stderr)")
      XCTAssertFalse(result.timedOut, "round \(round): SIGTERM was lost")
      if result.status != 0 { break }
    }
  }

  func testAWriterHoldingTheLedgerDelaysAnAnswerButNeverFailsOrEmptiesIt() throws {
    let fixture = try ServeFixture(self)
    let bought = try StorefrontProcess.run(
      ["run", "-", "--json", "--data-dir", fixture.data.path],
      input: Data("account backend\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.shopping\n".utf8))
    XCTAssertEqual(bought.status, 0, bought.stderr)
    let purchase = try XCTUnwrap(
      bought.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        .first { $0["event"] as? String == "transactionUpdated" && $0["state"] as? String == "purchased" })
    let id = try XCTUnwrap(purchase["transactionId"] as? String)
    let signed = try XCTUnwrap(purchase["signedTransaction"] as? String)
    let (serve, port) = try fixture.start()
    let request = try goodRequest(fixture, id: id)

    // Another process holds a write transaction (BEGIN EXCLUSIVE with an uncommitted row). The
    // ledger is in WAL mode, so a read is answered from the last commit: the purchase, not an
    // error and not an empty answer. (A writer past SQLite's busy timeout would be Apple's
    // retryable 5000001; LedgerFailureTests covers that mapping.)
    let holder = try LockHolder(fixture.data.appendingPathComponent("ledger.sqlite"))
    let during = try RawHTTPConnection(port: port)
    try during.send(request)
    let answer = try during.receive(timeout: 30)
    holder.release()
    XCTAssertEqual(answer.status, 200, answer.text)
    XCTAssertEqual((try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["signedTransactionInfo"] as? String, signed)
    try assertServes(port, request, status: 200, "after the writer released the ledger")

    // A request that writes (consumption information, stored when serve runs an engine) waits for the
    // writer instead of failing: released within SQLite's busy timeout, it is answered 202.
    let body = #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#
    let writer = try LockHolder(fixture.data.appendingPathComponent("ledger.sqlite"))
    let write = try RawHTTPConnection(port: port)
    try write.send(
      "PUT /inApps/v2/transactions/consumption/\(id) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(try fixture.authorization())\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    // Either answered already (nothing to write) or still waiting on the lock; never an error meanwhile.
    let early = try? write.receive(timeout: 1)
    writer.release()
    let written = try early ?? write.receive(timeout: 30)
    XCTAssertEqual(written.status, 202, written.text)
    _ = try ServeFixture.stop(serve)
  }
}
