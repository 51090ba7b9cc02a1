import Dispatch
import Foundation
import StoreEngine
import XCTest

@testable import SQLiteLedger

/// Separate stores on one file, on separate threads, as two storefront processes would use it.
///
/// True multi-process runs (several `storefront` processes on one data directory) belong to the
/// integration tests; these tests exercise the same SQLite locking between two connections.
final class SQLiteLedgerConcurrencyTests: XCTestCase {
  private static let commitsPerWriter = 150

  func testTwoConnectionsCommittingAtOnceLoseAndDuplicateNothing() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url
    let failures = Locked<[String]>([])
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for writer in 0..<2 {
      group.enter()
      let thread = Thread {
        defer { group.leave() }
        start.wait()
        do {
          // Both open the fresh directory at the same moment: the schema is created exactly once.
          let store = try SQLiteLedgerStore(directory: url)
          for index in 0..<Self.commitsPerWriter {
            let id = UInt64(writer * 100_000 + index + 10)
            var transaction = LedgerFixtures.transaction(id, account: "writer\(writer)")
            try store.commit([
              .putTransaction(transaction), .putSubscription(LedgerFixtures.subscription(UInt64(writer + 1), account: "w", renewals: index)),
            ])
            transaction.state = .purchased
            transaction.isFinished = true
            var shared = LedgerFixtures.transaction(1, account: "shared")
            shared.quantity = index
            try store.commit([.putTransaction(transaction), .putTransaction(shared)])
          }
        } catch {
          failures.withLock { $0.append("writer \(writer): \(error)") }
        }
      }
      thread.start()
    }
    start.signal()
    start.signal()
    XCTAssertEqual(group.wait(timeout: .now() + 120), .success, "the writers finished")
    XCTAssertEqual(failures.withLock { $0 }, [])

    let reader = try SQLiteLedgerStore(directory: url)
    let snapshot = try reader.load()
    let all = try reader.allTransactions()
    let ids = all.map(\.id.rawValue)
    XCTAssertEqual(Set(ids).count, ids.count, "no duplicated transaction")
    XCTAssertEqual(ids.count, 2 * Self.commitsPerWriter + 1, "no lost transaction")
    for writer in 0..<2 {
      let mine = all.filter { $0.account == "writer\(writer)" }
      XCTAssertEqual(mine.count, Self.commitsPerWriter)
      XCTAssertTrue(mine.allSatisfy { $0.state == .purchased && $0.isFinished })
      XCTAssertEqual(snapshot.subscriptions.first { $0.originalID.rawValue == UInt64(writer + 1) }?.renewalCount, Self.commitsPerWriter - 1)
    }
    XCTAssertEqual(
      snapshot.transactions.filter { $0.account == "shared" }.map(\.quantity),
      [Self.commitsPerWriter - 1])
    XCTAssertEqual(try SQLiteLedgerStore(directory: url).integrityCheck(), "ok")
  }

  func testAStoreSeesCommitsOfAnotherStore() throws {
    let directory = try TemporaryDirectory()
    let first = try SQLiteLedgerStore(directory: directory.url)
    let second = try SQLiteLedgerStore(directory: directory.url)
    try first.commit([.putTransaction(LedgerFixtures.transaction(1))])
    try second.commit([.putTransaction(LedgerFixtures.transaction(2))])
    XCTAssertEqual(try first.allTransactions().map(\.id.rawValue), [1, 2])
    XCTAssertEqual(try second.load(), try first.load())
  }
}
