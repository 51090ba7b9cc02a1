import Foundation
import StoreEngine
import StorefrontTestSupport

/// One buy → purchased → finish cycle on a `PaymentQueue`, with dialogs off and a consumable product
/// (so ownership never has to be looked up), a cheap deterministic signer and one observer.
struct CycleDriver {
  let queue: PaymentQueue
  let product: Product.ID
  let observer = CountingObserver()

  init(catalog: Catalog, ledger: any LedgerStore, signing: BenchSigning = .string) throws {
    guard let product = catalog.products.first(where: { $0.kind == .consumable })?.id else {
      throw BenchError.failed("the catalog has no consumable product to buy")
    }
    self.product = product
    queue = try BenchStore.open(
      catalog: catalog, ledger: ledger, signing: signing, passwordHasher: InsecureTestHasher(), start: TestStore.start,
      firstTransactionID: 1_000_000_001, seed: 7)
    queue.add(observer)
    try queue.signIn("bench")
    try queue.set(.dialogs(false))
  }

  /// Runs one cycle and checks it went buy → purchased → finish.
  func cycle() throws {
    let id = try queue.add(Payment(productID: product))
    guard queue.machine.transaction(id)?.state == .purchased else {
      throw BenchError.failed("transaction \(id) is \(queue.machine.transaction(id)?.state.name ?? "missing"), not purchased, after buying with dialogs off")
    }
    try queue.finish(id)
  }
}

/// Counts callbacks, as the cheapest real observer would.
final class CountingObserver: PaymentTransactionObserver {
  var updated = 0
  var removed = 0
  func updatedTransactions(_ transactions: [PaymentTransaction]) { updated += transactions.count }
  func removedTransactions(_ transactions: [PaymentTransaction]) { removed += transactions.count }
  func restoreCompletedTransactionsFinished() {}
  func restoreCompletedTransactionsFailed(with error: StoreKitError) {}
}

/// `engine_cycles_per_s`: cycles per second with `InMemoryLedgerStore`; a fresh queue each repetition.
enum EngineBenchmark {
  static func run(catalog: Catalog, cycles: Int, repeats: Int, into report: Report) throws {
    var rates: [Double] = []
    var commitsPerCycle = 0.0
    for repetition in 0...repeats {
      let ledger = InMemoryLedgerStore()
      let driver = try CycleDriver(catalog: catalog, ledger: ledger)
      let before = ledger.commitCount
      let seconds = try Stopwatch.seconds {
        for _ in 0..<cycles { try driver.cycle() }
      }
      guard driver.observer.removed == cycles else {
        throw BenchError.failed("the observer heard \(driver.observer.removed) removals for \(cycles) cycles")
      }
      commitsPerCycle = Double(ledger.commitCount - before) / Double(cycles)
      if repetition > 0 { rates.append(Double(cycles) / seconds) }  // repetition 0 warms up
    }
    let sample = Sample(values: rates, unit: "cycles/s")
    report.record("engine_cycles", sample)
    report.set("engine_cycles_per_s", sample.median)
    report.extra("engine_commits_per_cycle", commitsPerCycle)
  }
}
