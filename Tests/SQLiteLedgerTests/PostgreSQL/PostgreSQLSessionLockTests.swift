import Foundation
import StoreEngine
import XCTest

@testable import PostgreSQLLedger

/// Owner sessions on a shared ledger: alive while their client holds its advisory lock, dead once
/// its connection is gone, whichever machine asks.
final class PostgreSQLSessionLockTests: XCTestCase {
  func testASessionIsAliveWhileItsLockIsHeldAndDeadOnceReleased() throws {
    let address = PostgreSQLAddress(try PostgreSQLTestDatabase.make(label: "session"))
    let owner = try PostgreSQLSessionLock(address: address, id: "1234:99@boot-a")
    let asker = try PostgreSQLSessionLock(address: address, id: "5678:11@boot-b")
    XCTAssertTrue(asker.session.isAlive(owner.id))
    XCTAssertTrue(asker.isAlive(owner.id), "asking does not take the lock over")
    XCTAssertFalse(asker.isAlive("never-started"))
    XCTAssertThrowsError(try PostgreSQLSessionLock(address: address, id: owner.id)) { error in
      XCTAssertTrue("\(error)".contains("already holds session"), "\(error)")
    }
    owner.release()
    XCTAssertFalse(asker.isAlive(owner.id))
    // The asker let go of the lock it took to find out: a third client sees the same.
    let third = try PostgreSQLSessionLock(address: address, id: "9:9@boot-c")
    XCTAssertFalse(third.isAlive(owner.id))
    XCTAssertNoThrow(try PostgreSQLSessionLock(address: address, id: owner.id), "the id is free again")
  }

  /// A process opens two stores on one ledger (the TUI and its server): they share one session lock.
  func testTheSameProcessSharesOneLockPerSession() throws {
    let address = PostgreSQLAddress(try PostgreSQLTestDatabase.make(label: "shared"))
    let first = try PostgreSQLSessionLock.acquire(address: address, id: "77:1@boot")
    let second = try PostgreSQLSessionLock.acquire(address: address, id: "77:1@boot")
    XCTAssertTrue(first === second)
    first.release()
    XCTAssertFalse(first.isHeld)
    let renewed = try PostgreSQLSessionLock.acquire(address: address, id: "77:1@boot")
    XCTAssertFalse(renewed === first, "a released lock is taken afresh")
    XCTAssertTrue(renewed.isHeld)
  }
}
