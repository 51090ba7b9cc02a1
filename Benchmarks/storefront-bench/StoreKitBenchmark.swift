import Foundation
import SandboxSigning
import StoreEngine
import StoreKit
import StoreKitTest
import StorefrontTestSupport

/// `storekit_round_trips_per_s` and `storekit_vs_engine`: round trips through the StoreKit library
/// under `SKTestSession` (add an `SKPayment` → the `purchased` callback on the main queue →
/// `finishTransaction` → the `removed` callback), against the engine's own buy → finish cycles with
/// the same ES256 signer (the sandbox CA's, which the library's store uses), interleaved in chunks in
/// the same run; `storekit_session_rss_kb`: what opening one session and its first purchase add to
/// the process's resident memory.
enum StoreKitBenchmark {
  static let keys = ["storekit_round_trips_per_s", "storekit_vs_engine", "storekit_session_rss_kb"]

  @MainActor
  static func run(catalogURL: URL, catalog: StoreEngine.Catalog, roundTrips: Int, repeats: Int, into report: Report) throws {
    let before = residentKB()
    let session = try SKTestSession(contentsOf: catalogURL)
    session.disableDialogs = true
    let driver = try LibraryDriver(catalog: catalog)
    try driver.roundTrips(1)
    report.set("storekit_session_rss_kb", Double(residentKB() - before))

    // The engine on an in-memory ledger with the signer the library's store signs with.
    let shared = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-storekit-\(getuid())", isDirectory: true)
    let authority = try BenchStore.authority(in: shared)
    let chunk = 50
    var libraryRates: [Double] = []
    var engineRates: [Double] = []
    var environmentRates: [Double] = []
    let product = StoreEngine.Product.ID(driver.payment.productIdentifier)
    for repetition in 0...repeats {
      let engine = try CycleDriver(catalog: catalog, ledger: InMemoryLedgerStore(), signing: .sandbox(authority))
      session.clearTransactions()
      var librarySeconds = 0.0
      var engineSeconds = 0.0
      var environmentSeconds = 0.0
      var done = 0
      while done < roundTrips {
        let count = min(chunk, roundTrips - done)
        librarySeconds += try Stopwatch.seconds { try driver.roundTrips(count) }
        engineSeconds += try Stopwatch.seconds { for _ in 0..<count { try engine.cycle() } }
        environmentSeconds += try Stopwatch.seconds {
          for _ in 0..<count {
            guard let id = try StoreKitEnvironment.shared.perform(.buy(Payment(productID: product))).createdTransaction else {
              throw BenchError.failed("the library's store made no transaction")
            }
            try StoreKitEnvironment.shared.perform(.finish(id))
          }
        }
        done += count
      }
      if repetition > 0 {  // repetition 0 warms up
        libraryRates.append(Double(roundTrips) / librarySeconds)
        engineRates.append(Double(roundTrips) / engineSeconds)
        environmentRates.append(Double(roundTrips) / environmentSeconds)
      }
    }
    let library = Sample(values: libraryRates, unit: "round trips/s")
    let engine = Sample(values: engineRates, unit: "cycles/s")
    report.record("storekit_round_trips", library)
    report.record("storekit_engine_signed_cycles", engine)
    report.set("storekit_round_trips_per_s", library.median)
    report.extra("storekit_engine_signed_cycles_per_s", engine.median)
    // The same cycles through the library's store (its lock, its event translation), no callbacks:
    // where the rest of a round trip goes is the main queue and the observer objects.
    report.extra("storekit_environment_cycles_per_s", Sample(values: environmentRates, unit: "cycles/s").median)
    report.set("storekit_vs_engine", library.median / engine.median)
  }

  /// Resident memory of this process, from `/proc/self/status` (`VmRSS`), in KB.
  static func residentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}

/// Buys a consumable through `SKPaymentQueue` and finishes it in the `purchased` callback, as an
/// app does; a round trip ends with the `removed` callback.
@MainActor
final class LibraryDriver {
  let observer = FinishingObserver()
  let payment: SKPayment

  init(catalog: StoreEngine.Catalog) throws {
    guard let product = catalog.products.first(where: { $0.kind == .consumable })?.id.rawValue else {
      throw BenchError.failed("the catalog has no consumable product to buy")
    }
    let payment = SKMutablePayment(product: try Self.product(product))
    self.payment = payment
    SKPaymentQueue.default().add(observer)
  }

  /// The product, from a products request (spinning the main run loop for its answer).
  static func product(_ id: String) throws -> SKProduct {
    final class Delegate: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
      var product: SKProduct?
      var done = false
      func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) { product = response.products.first }
      func requestDidFinish(_ request: SKRequest) { done = true }
      func request(_ request: SKRequest, didFailWithError error: any Error) { done = true }
    }
    let delegate = Delegate()
    let request = SKProductsRequest(productIdentifiers: [id])
    request.delegate = delegate
    request.start()
    try spin(until: { delegate.done })
    guard let product = delegate.product else { throw BenchError.failed("the products request returned no \(id)") }
    return product
  }

  func roundTrips(_ count: Int) throws {
    observer.removed = 0
    observer.target = count
    observer.payment = payment
    SKPaymentQueue.default().add(payment)
    try Self.spin(until: { self.observer.removed >= count })
  }

  /// Runs the main run loop until `condition` holds (bounded: a benchmark that stalls fails).
  static func spin(until condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(120)
    while !condition() {
      guard Date() < deadline else { throw BenchError.failed("StoreKit callbacks stopped arriving") }
      _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
    }
  }
}

final class FinishingObserver: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
  var removed = 0
  var target = 0
  var payment: SKPayment?

  func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
    for transaction in transactions where transaction.transactionState == .purchased {
      queue.finishTransaction(transaction)
    }
  }

  func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
    removed += transactions.count
    if removed < target, let payment { queue.add(payment) }
  }
}
