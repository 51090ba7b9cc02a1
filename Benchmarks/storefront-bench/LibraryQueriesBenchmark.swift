import Foundation
import StoreEngine
import StoreKit

/// `storekit_all_first_page_100k_vs_100` and `storekit_entitlements_100k_vs_100` (issue 35): the
/// `StoreKit` library's `Transaction.all` first \`pageRows\` rows and `Transaction.currentEntitlements`
/// on the launch suite's ledgers of 100,000 and 100 transactions, in this process as an app on that
/// data directory. The library reads the present and pages the history, so the two sizes should
/// cost about the same.
enum LibraryQueriesBenchmark {
  static let keys = ["storekit_all_first_page_100k_vs_100", "storekit_entitlements_100k_vs_100"]
  /// Rows of `Transaction.all` read: as many as the 100-transaction ledger yields (its finished
  /// consumables are not in `all`), so both sizes verify the same number of JWS.
  static let pageRows = 50

  struct Timing {
    var firstPage: Double
    var entitlements: Double
    var pageRows: Int
    var entitled: Int
  }

  /// Times the two queries on the library opened on `directory`, `repeats` times after one warm-up.
  static func measure(_ directory: URL, repeats: Int) throws -> [Timing] {
    let environment = [
      "STOREFRONT_DATA_DIR": directory.path, "STOREFRONT_BUNDLE_ID": BenchStore.bundleID, "STOREFRONT_DIALOGS": "off",
    ]
    try StoreKitEnvironment.shared.replace(with: .processDefault(environment: environment))
    var timings: [Timing] = []
    for repetition in 0...repeats {
      let (firstPage, pageRows) = timed {
        var rows = 0
        for await _ in Transaction.all {
          rows += 1
          if rows == Self.pageRows { break }
        }
        return rows
      }
      let (entitlements, entitled) = timed {
        var rows = 0
        for await _ in Transaction.currentEntitlements { rows += 1 }
        return rows
      }
      if repetition > 0 { timings.append(Timing(firstPage: firstPage, entitlements: entitlements, pageRows: pageRows, entitled: entitled)) }
    }
    return timings
  }

  /// Runs `body` on the concurrency pool and waits for it: milliseconds and its answer.
  private static func timed(_ body: @escaping @Sendable () async -> Int) -> (Double, Int) {
    let result = Locked((0.0, 0))
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      let start = Stopwatch.nanoseconds()
      let answer = await body()
      result.withLock { $0 = (Double(Stopwatch.nanoseconds() - start) / 1e6, answer) }
      done.signal()
    }
    done.wait()
    return result.withLock { $0 }
  }

  static func record(small: [Timing], large: [Timing], into report: Report) {
    let smallPage = Sample(values: small.map(\.firstPage), unit: "ms")
    let largePage = Sample(values: large.map(\.firstPage), unit: "ms")
    let smallEntitled = Sample(values: small.map(\.entitlements), unit: "ms")
    let largeEntitled = Sample(values: large.map(\.entitlements), unit: "ms")
    report.record("storekit_all_first_page_100", smallPage)
    report.record("storekit_all_first_page_100k", largePage)
    report.record("storekit_entitlements_100", smallEntitled)
    report.record("storekit_entitlements_100k", largeEntitled)
    report.set("storekit_all_first_page_100k_vs_100", largePage.median / smallPage.median)
    report.set("storekit_entitlements_100k_vs_100", largeEntitled.median / smallEntitled.median)
    let rows = "first page \(large.first?.pageRows ?? 0) rows (100: \(small.first?.pageRows ?? 0)); entitlements \(large.first?.entitled ?? 0) (100: \(small.first?.entitled ?? 0))"
    let how =
      "This process as an app using the StoreKit library on the launch suite's data directories (100 and 100,000 transactions of one tester, LedgerHistory), dialogs off: Transaction.all iterated to its \(pageRows)th row (each verified), and Transaction.currentEntitlements iterated to its end, each awaited from a detached task; \(rows); the library opened once per size, first repetition dropped."
    report.note("storekit_all_first_page_100k_vs_100", how)
    report.note("storekit_entitlements_100k_vs_100", how)
  }
}
