import Foundation
package import StoreEngine
internal import StoreScenario

/// The process's one StoreKit test environment (Apple: "There's a single instance of the test
/// environment. All SKTestSession instances control the same test environment").
///
/// Every StoreKit call and every `SKTestSession` call becomes a ``StoreEngine/StoreCommand`` that the
/// engine's ``StoreEngine/PaymentQueue`` performs under one lock, so each takes effect before it
/// returns, from any thread. The step's events are then translated, in the order the engine
/// announced them: StoreKit 1 callbacks go to the main queue (as StoreKit delivers them), StoreKit 2
/// results resume the waiting `purchase()` and `Transaction.updates` gets the rest, by the rule of
/// ``StoreScenario/StoreKit2View`` (the scenario runner's). User code never runs under the lock.
package final class StoreKitEnvironment: @unchecked Sendable {
  package static let shared = StoreKitEnvironment()

  // Everything below is read and written only with `lock` held.
  private let lock = NSRecursiveLock()
  private var store: OpenStore?
  /// `purchase()` calls waiting for their result, by the transaction the call made.
  var purchaseCalls: [StoreEngine.PaymentTransaction.ID: CheckedContinuation<Product.PurchaseResult, any Error>] = [:]
  /// `Product.products(for:)` calls waiting for their response, by request number.
  var productCalls: [Int: CheckedContinuation<ProductsAnswer, any Error>] = [:]
  /// Answers that arrived within the step that asked (no latency), before the caller could wait:
  /// the caller takes them right after the step.
  var unclaimedProducts: [Int: Result<ProductsAnswer, StoreEngine.StoreKitError>] = [:]
  var unclaimedPurchases: [StoreEngine.PaymentTransaction.ID: Result<Product.PurchaseResult, any Error>] = [:]
  /// iOS 27's `AppStore.presentOfferCodeRedeemSheet` call waiting for the storefront's sheet.
  var offerCodeSheetCall: CheckedContinuation<Product.PurchaseResult, any Error>?
  /// Codes a test entered for the next offer-code sheets (`SKTestSession.enterOfferCode(_:)`).
  package var enteredOfferCodes: [String] = []
  /// `SKProductsRequest`s waiting for their response (kept alive until then, as StoreKit does).
  var productRequests: [Int: SKProductsRequest] = [:]
  var updateListeners: [UInt64: AsyncStream<VerificationResult<Transaction>>.Continuation] = [:]
  var storefrontListeners: [UInt64: AsyncStream<Storefront>.Continuation] = [:]
  private var nextListener: UInt64 = 1
  /// One `SKPaymentTransaction` object per engine transaction, updated as callbacks deliver it.
  var paymentTransactions: [StoreEngine.PaymentTransaction.ID: SKPaymentTransaction] = [:]
  private var reported: [String] = []
  /// Counts the stores opened: callbacks a replaced store scheduled are dropped, not delivered to
  /// the next session's observers (the app they were meant for is gone).
  private(set) var storeGeneration: UInt64 = 0
  /// An attached app's session, once registered (removed at exit).
  var attachedSession: String?
  /// The open sheet waiting with no storefront attached, and when it is cancelled.
  var sheetDeadline: (id: StoreEngine.PaymentTransaction.ID, date: Date)?
  /// How many ledger follower threads were started (tests: one per attached store, not one per look).
  package internal(set) var followersStarted = 0
  /// How many times a ledger follower woke (looked, or found nothing committed).
  package internal(set) var followerWakes = 0
  /// The transactions the launch found unfinished, for the first `Transaction.updates` sequence.
  var unfinishedAtLaunch: [StoreEngine.PaymentTransaction.ID] = []
  /// The storefront's sandbox settings this attached app last followed.
  var followedSettings: DeviceSettings?
  /// What this attached app heard, as written to the ledger for the storefront's Log pane.
  var appLog = DeviceValues.AppLog(bundleID: "")
  /// The sets of unsold product ids an attached app was told of.
  var toldUnsold: Set<String> = []
  /// The open store, if any (lock held).
  var currentStore: OpenStore? { store }

  private init() {}

  /// Runs `body` with the lock held.
  package func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// The open store, opening the process default (``StoreConfiguration/processDefault()``) on
  /// first use. Call with the lock held.
  package func openStore() throws(StoreOpenError) -> OpenStore {
    if let store { return store }
    try replace(with: .processDefault())
    guard let store else { throw .engine("no store") }
    return store
  }

  /// Opens a new store for `configuration` in place of the current one (a new `SKTestSession`):
  /// the old store's waiting calls end with an error, and the app launches on the new one.
  package func replace(with configuration: StoreConfiguration) throws(StoreOpenError) {
    lock.lock()
    defer { lock.unlock() }
    let opened = try OpenStore(configuration)
    for (_, call) in purchaseCalls { call.resume(throwing: StoreKitError.unknown) }
    for (_, call) in productCalls { call.resume(throwing: StoreKitError.unknown) }
    purchaseCalls = [:]
    productCalls = [:]
    offerCodeSheetCall?.resume(throwing: StoreKitError.unknown)
    offerCodeSheetCall = nil
    enteredOfferCodes = []
    unclaimedProducts = [:]
    unclaimedPurchases = [:]
    productRequests = [:]
    paymentTransactions = [:]
    store = opened
    storeGeneration += 1
    followedSettings = nil
    StoreKit2Registry.shared.storeReplaced()
    _ = opened.collector.drain()
    // Registered first, so that the storefront's Log pane shows what the launch delivers.
    register(opened)
    // The app starts: its unfinished transactions are delivered again.
    do { try opened.queue.launch() } catch { report("launching the app on the new store failed: \(error)") }
    // Apple: "If your app has unfinished transactions, the updates listener receives them once,
    // immediately after the app launches."
    unfinishedAtLaunch = opened.queue.unfinishedTransactions.map(\.id)
    deliver(opened.collector.drain(), from: opened)
    // A price increase still waiting for consent: the consent sheet is due again at launch.
    let launchQuestions = priceConsentQuestionsAtLaunch(in: opened)
    if !launchQuestions.isEmpty { SKPaymentQueue.default().schedule(launchQuestions) }
    // A purchase the app's previous process left on the sheet is back: it waits for an answer again.
    attendSheet(opened)
    startFollower(opened)
  }

  /// Performs `command` as one engine step and translates its events; returns the step.
  /// - Parameter before: runs with the lock held just before the step (a `purchase()` call
  ///   registers itself with the StoreKit 2 view there).
  @discardableResult
  package func perform(
    _ command: StoreEngine.StoreCommand, before: ((OpenStore) -> Void)? = nil
  ) throws(StorePerformError) -> StoreEngine.StoreStep {
    lock.lock()
    defer { lock.unlock() }
    let store: OpenStore
    do { store = try openStore() } catch { throw .open(error) }
    followDeviceSettings(store)
    before?(store)
    let step: StoreEngine.StoreStep
    do {
      step = try store.queue.perform(command)
    } catch {
      deliver(store.collector.drain(), from: store)
      throw .engine(error)
    }
    deliver(store.collector.drain(), from: store)
    attendSheet(store)
    return step
  }

  /// Reads from the open store with the lock held.
  package func read<T>(_ body: (OpenStore) throws -> T) throws(StorePerformError) -> T {
    lock.lock()
    defer { lock.unlock() }
    let store: OpenStore
    do { store = try openStore() } catch { throw .open(error) }
    do { return try body(store) } catch let error as StoreEngine.LedgerError {
      throw .engine(.ledger(error))
    } catch let error as StorePerformError {
      throw error
    } catch {
      throw .other(String(describing: error))
    }
  }

  /// The generation of the open store (see ``storeGeneration``).
  package var generation: UInt64 { locked { storeGeneration } }

  // MARK: Listeners

  /// A new `Transaction.updates` sequence: it hears every update from now on.
  func addUpdatesListener() -> AsyncStream<VerificationResult<Transaction>> {
    let (stream, continuation) = AsyncStream.makeStream(of: VerificationResult<Transaction>.self)
    locked {
      let id = nextListener
      nextListener += 1
      updateListeners[id] = continuation
      continuation.onTermination = { [weak self] _ in self?.locked { _ = self?.updateListeners.removeValue(forKey: id) } }
      // The first sequence after the launch gets the transactions the launch found unfinished (and
      // still are), once.
      let waiting = unfinishedAtLaunch
      unfinishedAtLaunch = []
      guard !waiting.isEmpty, let store = currentStore else { return }
      for id in waiting {
        guard let transaction = try? store.queue.transaction(id), !transaction.isFinished, transaction.state == .purchased else { continue }
        continuation.yield(verification(of: transaction, in: store))
      }
    }
    return stream
  }

  /// Every `Transaction.updates` element that `body` causes, in order: a listener is made before it
  /// and closed after it, then drained. Nothing is waited for, since every call takes effect (and
  /// yields its updates) before it returns.
  package func updates(during body: () async throws -> Void) async rethrows -> [VerificationResult<Transaction>] {
    let (stream, continuation) = AsyncStream.makeStream(of: VerificationResult<Transaction>.self)
    let id = locked {
      let id = nextListener
      nextListener += 1
      updateListeners[id] = continuation
      return id
    }
    defer { _ = locked { updateListeners.removeValue(forKey: id) } }
    do {
      try await body()
    } catch {
      continuation.finish()
      throw error
    }
    locked { _ = updateListeners.removeValue(forKey: id) }
    continuation.finish()
    var collected: [VerificationResult<Transaction>] = []
    for await update in stream { collected.append(update) }
    return collected
  }

  /// A new `Storefront.updates` sequence.
  func addStorefrontListener() -> AsyncStream<Storefront> {
    let (stream, continuation) = AsyncStream.makeStream(of: Storefront.self)
    locked {
      let id = nextListener
      nextListener += 1
      storefrontListeners[id] = continuation
      continuation.onTermination = { [weak self] _ in self?.locked { _ = self?.storefrontListeners.removeValue(forKey: id) } }
    }
    return stream
  }

  // MARK: Misuse

  /// Tells the developer about a misuse StoreKit would crash on or log (finishing a purchasing
  /// transaction, a payment with a quantity of 0): on standard error, with where it happened, and
  /// in ``reportedIssues`` for tests.
  package func report(_ message: String, file: StaticString = #fileID, line: UInt = #line) {
    let text = "\(file):\(line): StoreKit: \(message)"
    locked { reported.append(text) }
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// Tells the developer about a misuse of an Apple API whose signature carries no caller location
  /// (`finishTransaction(_:)`): as ``report(_:file:line:)``, prefixed `StoreKit:` only.
  package func reportMisuse(_ message: String) {
    let text = "StoreKit: \(message)"
    locked { reported.append(text) }
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// Every issue ``report(_:file:line:)`` told of, oldest first.
  package var reportedIssues: [String] { locked { reported } }

  package func clearReportedIssues() { locked { reported.removeAll() } }
}

/// Why a StoreKit call could not be carried out.
package enum StorePerformError: Error, Sendable {
  case open(StoreOpenError)
  case engine(StoreEngine.EngineError)
  case other(String)
}
