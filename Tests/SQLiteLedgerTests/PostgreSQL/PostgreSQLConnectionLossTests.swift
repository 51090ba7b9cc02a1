import Foundation
import StoreEngine
import XCTest

@testable import PostgreSQLLedger

/// A real server ends a client's session (`pg_terminate_backend`, as a restart does): the store,
/// the change listener and the session lock get a new connection by themselves, and a transaction
/// whose COMMIT outcome the loss hid is settled by asking the server.
final class PostgreSQLConnectionLossTests: XCTestCase {
  private func terminate(_ pid: Int32, on uri: String) throws {
    let admin = try PostgreSQLConnection(PostgreSQLAddress(uri))
    XCTAssertEqual(try admin.execute("SELECT pg_terminate_backend($1, 10000)", [.int(Int64(pid))]).text(0, 0), "t")
  }

  private func purchased(_ id: UInt64) -> PaymentTransaction {
    var transaction = LedgerFixtures.transaction(id)
    transaction.state = .purchased
    return transaction
  }

  func testACommitAfterTheSessionWasEndedReconnectsAndLandsOnce() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "loss")
    let states = Locked<[LedgerConnectionState]>([])
    let store = try PostgreSQLLedgerStore(uri, options: .init(onConnectionChange: { state in states.withLock { $0.append(state) } }))
    try store.commit([.putTransaction(purchased(1))])
    try terminate(store.connection.backendPID, on: uri)
    try store.commit([.putTransaction(purchased(2))])
    XCTAssertEqual(try PostgreSQLLedgerStore(uri).allTransactions().map(\.id.rawValue), [1, 2])
    let seen = states.withLock { $0 }
    guard case .reconnecting(attempt: 1, _, let reason)? = seen.first else { return XCTFail("\(seen)") }
    XCTAssertTrue(reason.contains("terminating connection") || reason.contains("closed"), reason)
    XCTAssertEqual(seen.last, .connected)
    // Reads ride through the same way.
    try terminate(store.connection.backendPID, on: uri)
    XCTAssertEqual(try store.allTransactions().count, 2)
  }

  /// COMMIT went through but the answer was lost: the step counts as committed, not run again.
  func testALostCommitThatLandedIsReportedCommitted() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "landed")
    let store = try PostgreSQLLedgerStore(uri)
    let connection = store.connection
    try store.write(try store.encode([.setClock(Date(timeIntervalSince1970: 1_800_000_000))]), after: "BEGIN", on: connection)
    XCTAssertTrue(store.commitSent)
    try terminate(connection.backendPID, on: uri)
    let lost = PostgreSQLFailure(sqlState: nil, message: "server closed the connection unexpectedly")
    XCTAssertEqual(try store.resolveLoss(lost, committing: "sent"), "sent")
    XCTAssertEqual(try store.virtualClock(), Date(timeIntervalSince1970: 1_800_000_000))
  }

  /// The session ended before COMMIT arrived: the server rolled back, so the batch runs again.
  func testALostCommitThatDidNotLandRunsAgain() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "rolled")
    let store = try PostgreSQLLedgerStore(uri)
    let connection = store.connection
    // What `write` does up to its last round trip: the stamp learnt, the writes sent, no COMMIT yet.
    try connection.execute("BEGIN")
    store.pendingStamp = try connection.execute(PostgreSQLSchema.selectStamp).int64(0, 0)
    for statement in try store.encode([.setClock(Date(timeIntervalSince1970: 1_800_000_000))]) {
      try connection.execute(statement.sql, statement.parameters)
    }
    XCTAssertNotNil(store.pendingStamp)
    try terminate(connection.backendPID, on: uri)
    let lost = PostgreSQLFailure(sqlState: nil, message: "server closed the connection unexpectedly")
    XCTAssertNil(try store.resolveLoss(lost, committing: "sent"))
    XCTAssertNil(try store.virtualClock(), "nothing of it was written")
  }

  /// A crash restart loses an unflushed commit's transaction id with it: the server calls the id
  /// "in the future" (22023), which means it did not land, so the batch runs again.
  func testALostCommitWhoseIDTheServerNeverLoggedRunsAgain() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "future")
    let store = try PostgreSQLLedgerStore(uri)
    store.pendingStamp = 1 << 40
    store.commitSent = true
    let lost = PostgreSQLFailure(sqlState: nil, message: "server closed the connection unexpectedly")
    XCTAssertNil(try store.resolveLoss(lost, committing: "sent"))
    XCTAssertNotNil(store.serverStarted, "the server's start time is known, to tell a restart")
  }

  func testTheListenerListensAgainAfterItsSessionWasEnded() throws {
    let uri = try PostgreSQLTestDatabase.make(label: "relisten")
    let writer = try PostgreSQLLedgerStore(uri)
    let listener = try PostgreSQLChangeListener(address: PostgreSQLAddress(uri))
    try terminate(listener.connection.withLock { $0.backendPID }, on: uri)
    XCTAssertTrue(try listener.wait(timeout: .seconds(20)), "back, and a commit may have been missed: look")
    try writer.commit([.putTransaction(purchased(3))])
    XCTAssertTrue(try listener.wait(timeout: .seconds(20)), "a commit after the reconnect is heard")
  }

  func testTheSessionLockIsTakenAgainAfterItsSessionWasEnded() throws {
    let address = PostgreSQLAddress(try PostgreSQLTestDatabase.make(label: "retake"))
    let owner = try PostgreSQLSessionLock(address: address, id: "41:1@boot-a")
    let asker = try PostgreSQLSessionLock(address: address, id: "42:1@boot-b")
    let pid = owner.backendPID
    let admin = try PostgreSQLConnection(address)
    XCTAssertEqual(try admin.execute("SELECT pg_terminate_backend($1, 10000)", [.int(Int64(pid))]).text(0, 0), "t")
    let deadline = ContinuousClock.now + .seconds(20)
    var retaken = false
    while !retaken, ContinuousClock.now < deadline {
      retaken = owner.isHeld && owner.backendPID != pid && asker.isAlive(owner.id)
      if !retaken { _ = try? admin.execute("SELECT pg_sleep(0.05)") }
    }
    XCTAssertTrue(retaken, "the owner holds its session's lock again on a new connection")
    owner.release()
    XCTAssertFalse(asker.isAlive(owner.id))
  }

  /// A server that stays away: opening waits out the patience, then names the database (never the
  /// password), the attempts, and what to do.
  func testGivingUpNamesTheDatabaseAndSaysWhatToDo() {
    let uri = "postgresql://tester:s3cret-pw@127.0.0.1:1/team?connect_timeout=5"
    let states = Locked<[LedgerConnectionState]>([])
    let options = PostgreSQLLedgerStore.Options(
      reconnect: PostgreSQLReconnectPolicy(patience: .milliseconds(350)),
      onConnectionChange: { state in states.withLock { $0.append(state) } }, waitsAtOpen: true)
    XCTAssertThrowsError(try PostgreSQLLedgerStore(uri, options: options)) { error in
      guard case .unreachable(let server, let reason)? = error as? LedgerError else { return XCTFail("\(error)") }
      XCTAssertEqual(server, "postgresql://tester@127.0.0.1:1/team")
      XCTAssertTrue(reason.contains("gave up after 2 attempts: start the database or restore the network"), reason)
      XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
    }
    XCTAssertEqual(states.withLock { $0.count }, 3, "two attempts told, then giving up")
    guard case .gaveUp(attempts: 2, _)? = states.withLock({ $0.last }) else { return XCTFail("\(states.withLock { $0 })") }
  }
}
