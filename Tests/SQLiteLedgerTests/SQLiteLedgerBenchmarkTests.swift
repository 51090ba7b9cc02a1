import Foundation
import StoreEngine
import XCTest

@testable import SQLiteLedger

/// Buy → purchased → finish cycles through the store against a raw SQLite loop doing the same
/// three upserts with the same pragmas. Timing is not asserted in ordinary runs (shared CI machines
/// are too noisy); set `LEDGER_BENCHMARK=1` to run it and print the ratio, ideally with `-c release`.
final class SQLiteLedgerBenchmarkTests: XCTestCase {
  private let cycles = 300

  func testStoreAgainstRawSQLiteLoop() throws {
    guard ProcessInfo.processInfo.environment["LEDGER_BENCHMARK"] == "1" else {
      throw XCTSkip("set LEDGER_BENCHMARK=1 to run the ledger benchmark")
    }
    var rawBest = Duration.seconds(1_000)
    var storeBest = Duration.seconds(1_000)
    for _ in 0..<5 {
      rawBest = min(rawBest, try rawLoop())
      storeBest = min(storeBest, try storeLoop())
    }
    let ratio =
      Double(
        rawBest.components.attoseconds + rawBest.components.seconds * 1_000_000_000_000_000_000)
      / Double(
        storeBest.components.attoseconds + storeBest.components.seconds * 1_000_000_000_000_000_000)
    let coder = LedgerJSONCoder()
    let transaction = LedgerFixtures.fullyPopulated()
    let encoding = try ContinuousClock().measure {
      for _ in 0..<1_000 { _ = try coder.encode(transaction) }
    }
    let plain = JSONEncoder()
    plain.outputFormatting = [.sortedKeys]
    let plainEncoding = try ContinuousClock().measure {
      for _ in 0..<1_000 { _ = try plain.encode(transaction) }
    }
    let textTime = ContinuousClock().measure {
      for _ in 0..<1_000 { _ = LedgerDateFormat.exactText(for: transaction.purchaseDate) }
    }
    print(
      "ledger benchmark: default date strategy: \(plainEncoding / 1_000), date text \(textTime / 1_000)"
    )
    print("ledger benchmark: JSON encoding of a fully populated transaction: \(encoding / 1_000)")
    print(
      "ledger benchmark: \(cycles) cycles, raw \(rawBest), store \(storeBest), raw/store ratio \(ratio)"
    )
  }

  private func storeLoop() throws -> Duration {
    let directory = try TemporaryDirectory()
    let store = try SQLiteLedgerStore(directory: directory.url)
    let clock = ContinuousClock()
    return try clock.measure {
      for index in 0..<cycles {
        var transaction = LedgerFixtures.transaction(UInt64(index + 1))
        try store.commit([.putTransaction(transaction)])
        transaction.state = .purchased
        try store.commit([.putTransaction(transaction)])
        transaction.isFinished = true
        try store.commit([.putTransaction(transaction)])
      }
    }
  }

  private func rawLoop() throws -> Duration {
    let directory = try TemporaryDirectory()
    // The same schema, created by the store, then used through a bare connection.
    do { _ = try SQLiteLedgerStore(directory: directory.url) }
    let connection = try SQLiteConnection(path: directory.ledgerPath)
    try connection.execute(
      "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
    let begin = try connection.prepare("BEGIN IMMEDIATE", persistent: true)
    let commit = try connection.prepare("COMMIT", persistent: true)
    let upsert = try connection.prepare(LedgerSchema.upsertTransaction, persistent: true)
    let json = try LedgerJSONCoder().encode(LedgerFixtures.transaction(1))
    let clock = ContinuousClock()
    return try clock.measure {
      for index in 0..<cycles {
        for (state, finished) in [(0, 0), (1, 0), (1, 1)] as [(Int64, Int64)] {
          try begin.run()
          try upsert.bind(Int64(index + 1), at: 1)
          try upsert.bind("alice", at: 2)
          try upsert.bind("com.example.gems", at: 3)
          try upsert.bind(state, at: 4)
          try upsert.bind(finished, at: 5)
          try upsert.bind(Int64(index + 1), at: 6)
          try upsert.bind(1_714_564_800.0, at: 7)
          try upsert.bind(json + "\(state)\(finished)", at: 8)
          try upsert.run()
          try commit.run()
        }
      }
    }
  }
}
