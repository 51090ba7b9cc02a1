import Foundation
import StoreEngine
import StoreKit
import StoreKitTest

/// `storekit_session_open_ms` and `storekit_session_vs_decode` (issue 34): a fresh `SKTestSession` on
/// a 20-product catalog (load the file, open an in-memory store on the shared sandbox CA, launch the
/// app) against loading and decoding that same file, interleaved in the same run.
enum SessionOpenBenchmark {
  static let keys = ["storekit_session_open_ms", "storekit_session_vs_decode"]

  static func run(scratch: URL, repeats: Int, into report: Report) throws {
    let url = try CatalogGenerator.write(products: 20, in: scratch)
    // One session first: the shared CA is made once per user, as in a test run's first session.
    _ = try SKTestSession(contentsOf: url)
    var open: [Double] = []
    var decode: [Double] = []
    let rounds = 20
    for _ in 0..<(repeats + 2) {
      var sessions: [SKTestSession] = []
      open.append(try Stopwatch.seconds { for _ in 0..<rounds { sessions.append(try SKTestSession(contentsOf: url)) } } * 1000 / Double(rounds))
      decode.append(try Stopwatch.seconds { for _ in 0..<rounds { _ = try CatalogLoader.load(path: url.path) } } * 1000 / Double(rounds))
    }
    let openSample = Sample(values: open, unit: "ms")
    let decodeSample = Sample(values: decode, unit: "ms")
    report.record("storekit_session_open", openSample)
    report.record("storekit_session_catalog_decode", decodeSample)
    report.set("storekit_session_open_ms", openSample.median)
    report.set("storekit_session_vs_decode", openSample.median / decodeSample.median)
  }
}
