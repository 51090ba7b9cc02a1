import Foundation
import PostgreSQLLedger
import SandboxSigning
import StoreEngine
import StoreScenario

/// Long-running storefronts on one PostgreSQL ledger, one thread each in this process, timed from
/// their first purchase cycle to their last: what `storefront run --ledger` does per line, without
/// its launch. Each client is what `LiveStore` wires for a shared ledger (its own
/// ``PostgreSQLLedgerStore`` and ``PostgreSQLSessionLock``, the sandbox CA's ES256 signer, PBKDF2
/// passwords) driven by a ``ScenarioRunner`` over the same `buy` / `finish last` script; every cycle
/// is two commits, each waiting for its WAL flush (`synchronous_commit=on`).
enum SharedLedgerDriver {
  /// Runs `clients` storefronts at once, `cycles` cycles each after one untimed warm-up cycle;
  /// returns their cycles per second together, and the commits per second that `count` (the
  /// ledger's commit count) saw over the same timed span.
  static func cyclesPerSecond(
    ledger: String, clients: Int, cycles: Int, catalog: Catalog, authority: SandboxCertificateAuthority,
    offerKey: PromotionalOfferKey, product: String, count: () throws -> Int64
  ) throws -> (cycles: Double, commits: Double) {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let failures = Locked<[String]>([])
    let script = (0..<cycles).flatMap { _ in ["buy \(product)", "finish last"] }.joined(separator: "\n") + "\n"
    let warmUp = "set dialogs off\nbuy \(product)\nfinish last\n"
    for index in 0..<clients {
      let thread = Thread {
        defer { done.signal() }
        var waited = false
        do {
          let client = try Client(
            ledger: ledger, account: "buyer\(index)", session: "bench-\(getpid())-\(index)", catalog: catalog,
            authority: authority, offerKey: offerKey)
          try client.run(warmUp)
          let steps = try client.parse(script)
          ready.signal()
          waited = true
          go.wait()
          try client.run(steps)
        } catch {
          failures.withLock { $0.append("client \(index): \(error)") }
          if !waited {
            ready.signal()
            go.wait()
          }
        }
      }
      thread.start()
    }
    for _ in 0..<clients { ready.wait() }
    let first = try count()
    let started = ContinuousClock.now
    for _ in 0..<clients { go.signal() }
    for index in 0..<clients {
      guard done.wait(timeout: .now() + 600) == .success else {
        throw BenchError.failed("in-process storefront \(index) of \(clients) did not finish \(cycles) cycles within 600 s")
      }
    }
    let elapsed = ContinuousClock.now - started
    let written = try count() - first
    if let failure = failures.withLock({ $0.first }) { throw BenchError.failed("in-process storefront failed: \(failure)") }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (Double(clients * cycles) / seconds, Double(written) / seconds)
  }

  /// One storefront: its store, session and queue, signed in, as `storefront run --account` opens them.
  private final class Client {
    let queue: PaymentQueue
    let catalog: Catalog
    let store: PostgreSQLLedgerStore
    let lock: PostgreSQLSessionLock

    init(
      ledger: String, account: String, session: String, catalog: Catalog, authority: SandboxCertificateAuthority,
      offerKey: PromotionalOfferKey
    ) throws {
      let address = PostgreSQLAddress(ledger)
      store = try PostgreSQLLedgerStore(address: address)
      lock = try PostgreSQLSessionLock.acquire(address: address, id: session)
      let environment = StoreEnvironment(
        signer: authority.signer(environment: "Sandbox"), bundleID: StoreEnvironment.defaultBundleID,
        passwordHasher: PBKDF2PasswordHasher(), start: Date(timeIntervalSince1970: 1_767_225_600), seed: 0,
        session: lock.session, offerSignatureVerifier: offerKey)
      queue = try PaymentQueue(catalog: catalog, ledger: store, environment: environment)
      self.catalog = catalog
      try queue.signIn(account)
    }

    deinit {
      lock.release()
      store.close()
    }

    func parse(_ script: String) throws -> [ScenarioStep] {
      switch ScenarioParser(catalog: catalog).parse(script) {
      case .success(let steps): return steps
      case .failure(let issues): throw BenchError.failed("the bench's scenario does not parse: \(issues.issues.map(\.message))")
      }
    }

    func run(_ script: String) throws { try run(try parse(script)) }

    func run(_ steps: [ScenarioStep]) throws {
      // Lines are made as `storefront run` makes them, then dropped (no terminal to write to).
      let runner = ScenarioRunner(queue: queue, json: false) { _ in }
      let outcome = runner.run(steps)
      guard case .passed = outcome else { throw BenchError.failed("the scenario stopped: \(outcome)") }
    }
  }
}
