import Foundation

/// The queue of payments the App Store processes: add payments, finish transactions, restore.
///
/// Each call takes effect in the store before it returns; observers hear of it on the main queue,
/// in the order the store made the changes (a command-line program spins `RunLoop.main`; XCTest's
/// expectations spin it while they wait).
open class SKPaymentQueue: NSObject, @unchecked Sendable {
  private static let shared = SKPaymentQueue()

  private struct WeakObserver {
    weak var value: (any SKPaymentTransactionObserver)?
  }

  private let observerLock = NSLock()
  private var observers: [WeakObserver] = []
  private weak var storedDelegate: (any SKPaymentQueueDelegate)?

  /// The queue of the app (there is one).
  ///
  /// Returns `Self` as Apple's does. Called on a subclass, Apple's returns the one `SKPaymentQueue`
  /// typed as the subclass (an Objective-C `instancetype`), which Swift cannot express safely: that
  /// call stops with a message here. A queue test double is made with its own initializer instead.
  open class func `default`() -> Self {
    guard let queue = shared as? Self else {
      preconditionFailure("\(Self.self).default(): the app's queue is an SKPaymentQueue, not a \(Self.self); make the double with its initializer")
    }
    return queue
  }

  /// Asked on the main queue when the storefront changes during a transaction and before the
  /// price-increase consent sheet shows. Not retained, as in StoreKit.
  open var delegate: (any SKPaymentQueueDelegate)? {
    get {
      observerLock.lock()
      defer { observerLock.unlock() }
      return storedDelegate
    }
    set {
      observerLock.lock()
      defer { observerLock.unlock() }
      storedDelegate = newValue
    }
  }

  /// Whether the user may make payments (the session's `canMakePayments` control).
  open class func canMakePayments() -> Bool {
    StoreKitEnvironment.shared.canMakePayments()
  }

  /// The transactions in the queue: the unfinished ones of the signed-in account, oldest first.
  open var transactions: [SKPaymentTransaction] {
    StoreKitEnvironment.shared.queueTransactions()
  }

  /// The observers, in the order they were added (not retained, as in StoreKit).
  open var transactionObservers: [any SKPaymentTransactionObserver] {
    observerLock.lock()
    defer { observerLock.unlock() }
    return observers.compactMap(\.value)
  }

  /// The account's storefront.
  open var storefront: SKStorefront? {
    StoreKitEnvironment.shared.currentStorefront()
  }

  /// Adds an observer; adding one that is already there does nothing. The unfinished transactions
  /// of the queue are delivered to it (on the main queue), as StoreKit does for a new observer.
  open func add(_ observer: any SKPaymentTransactionObserver) {
    observerLock.lock()
    observers.removeAll { $0.value == nil }
    let present = observers.contains { $0.value === observer }
    if !present { observers.append(WeakObserver(value: observer)) }
    observerLock.unlock()
    guard !present, self === SKPaymentQueue.shared else { return }
    StoreKitEnvironment.shared.deliverUnfinished(to: observer)
  }

  open func remove(_ observer: any SKPaymentTransactionObserver) {
    observerLock.lock()
    defer { observerLock.unlock() }
    observers.removeAll { $0.value == nil || $0.value === observer }
  }

  /// Adds a payment: a `purchasing` transaction appears, then the store's answer.
  open func add(_ payment: SKPayment) {
    StoreKitEnvironment.shared.add(payment)
  }

  /// Removes a transaction from the queue. Finishing a `purchasing` transaction is refused and
  /// reported with the transaction's product (StoreKit raises "Cannot finish a purchasing
  /// transaction"), on standard error and in the session's `reportedIssues`.
  open func finishTransaction(_ transaction: SKPaymentTransaction) {
    StoreKitEnvironment.shared.finish(transaction)
  }

  /// Does nothing: the store has no hosted content, so no download is the queue's to start.
  @available(*, deprecated, message: "Hosted content is no longer supported")
  open func start(_ downloads: [SKDownload]) {}

  /// Does nothing: the store has no hosted content.
  @available(*, deprecated, message: "Hosted content is no longer supported")
  open func pause(_ downloads: [SKDownload]) {}

  /// Does nothing: the store has no hosted content.
  @available(*, deprecated, message: "Hosted content is no longer supported")
  open func resume(_ downloads: [SKDownload]) {}

  /// Does nothing: the store has no hosted content.
  @available(*, deprecated, message: "Hosted content is no longer supported")
  open func cancel(_ downloads: [SKDownload]) {}

  /// Restores the account's completed purchases: each arrives as `restored`, then
  /// `paymentQueueRestoreCompletedTransactionsFinished(_:)`.
  open func restoreCompletedTransactions() {
    StoreKitEnvironment.shared.restore()
  }

  /// As ``restoreCompletedTransactions()``, restoring only the purchases whose payment carried
  /// `username` as its `applicationUsername` (nil: all of them).
  open func restoreCompletedTransactions(withApplicationUsername username: String?) {
    StoreKitEnvironment.shared.restore(applicationUsername: username)
  }

  /// The App Store's offer-code sheet. An app attached to a storefront gets it in the storefront's
  /// TUI, and the code typed there is redeemed as the user's purchase (the observer hears it). Under
  /// an `SKTestSession` nobody can type a code: a test redeems one with `redeemOfferCode(_:)`.
  open func presentCodeRedemptionSheet() {
    StoreKitEnvironment.shared.presentCodeRedemptionSheet()
  }

  /// Shows the price-increase consent sheets that are pending (those the delegate held back, and any
  /// never shown): consent is given or declined with `SKTestSession`'s price-increase methods.
  open func showPriceConsentIfNeeded() {
    StoreKitEnvironment.shared.showHeldPriceConsent()
  }

  /// Runs `callbacks` against the observers on the main queue, in order.
  func schedule(_ callbacks: [QueueCallback]) {
    let generation = StoreKitEnvironment.shared.generation
    DispatchQueue.main.async { self.run(callbacks, only: nil, generation: generation) }
  }

  /// Runs `callbacks` against one observer only (a new observer's unfinished transactions).
  func schedule(_ callbacks: [QueueCallback], only observer: any SKPaymentTransactionObserver) {
    let box = ObserverBox(observer)
    let generation = StoreKitEnvironment.shared.generation
    DispatchQueue.main.async { self.run(callbacks, only: box.value, generation: generation) }
  }

  private func run(_ callbacks: [QueueCallback], only: (any SKPaymentTransactionObserver)?, generation: UInt64) {
    // A session opened since: these callbacks belonged to the store it replaced.
    guard generation == StoreKitEnvironment.shared.generation else { return }
    for callback in callbacks {
      callback.prepare()
      let targets = only.map { [$0] } ?? transactionObservers
      if callback.ask(self, observers: targets) { continue }
      for observer in targets { callback.deliver(to: observer, queue: self) }
    }
  }
}

/// Carries an observer to the main queue (observers are the app's objects; StoreKit calls them there).
private struct ObserverBox: @unchecked Sendable {
  weak var value: (any SKPaymentTransactionObserver)?
  init(_ value: any SKPaymentTransactionObserver) { self.value = value }
}
