import Foundation

/// What StoreKit 2 keeps between engine steps that the engine has no place for: the listeners of
/// its asynchronous sequences (subscription statuses, messages, purchase intents) and the
/// storefront-change handlers of purchases in progress. Guarded by its own lock, taken inside the
/// environment's lock, never around it.
final class StoreKit2Registry: @unchecked Sendable {
  static let shared = StoreKit2Registry()

  private let lock = NSLock()
  private var nextID: UInt64 = 1
  private var statusListeners: [UInt64: AsyncStream<Product.SubscriptionInfo.Status>.Continuation] = [:]
  private var messageListeners: [UInt64: AsyncStream<Message>.Continuation] = [:]
  private var intentListeners: [UInt64: AsyncStream<PurchaseIntent>.Continuation] = [:]
  /// `onStorefrontChange` handlers by the engine id of the transaction their purchase made.
  private var handlers: [UInt64: Product.PurchaseOption.StorefrontChangeHandler] = [:]

  /// The messages already sent, by chain and kind (a message is sent once per occasion).
  private var sent: Set<String> = []

  private init() {}

  /// Marks `key` as sent; false if it was already.
  func markSent(_ key: String) -> Bool { locked { sent.insert(key).inserted } }

  /// A new store opened: the messages sent and the handlers kept were the old store's (its
  /// transaction ids start over), so they are forgotten; listeners stay (the app keeps listening).
  func storeReplaced() {
    locked {
      sent = []
      handlers = [:]
    }
  }

  /// Forgets `key`, so its occasion can bring a message again.
  func clearSent(_ key: String) { locked { _ = sent.remove(key) } }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  func setStorefrontHandler(_ handler: Product.PurchaseOption.StorefrontChangeHandler, for transaction: UInt64) {
    locked { handlers[transaction] = handler }
  }

  func storefrontHandler(for transaction: UInt64) -> Product.PurchaseOption.StorefrontChangeHandler? {
    locked { handlers[transaction] }
  }

  func takeStorefrontHandler(_ transaction: UInt64) -> Product.PurchaseOption.StorefrontChangeHandler? {
    locked { handlers.removeValue(forKey: transaction) }
  }

  private func newID() -> UInt64 {
    locked {
      defer { nextID += 1 }
      return nextID
    }
  }

  func statuses() -> AsyncStream<Product.SubscriptionInfo.Status> {
    let (stream, continuation) = AsyncStream.makeStream(of: Product.SubscriptionInfo.Status.self)
    let id = newID()
    locked { statusListeners[id] = continuation }
    continuation.onTermination = { [weak self] _ in self?.locked { _ = self?.statusListeners.removeValue(forKey: id) } }
    return stream
  }

  func messages() -> AsyncStream<Message> {
    let (stream, continuation) = AsyncStream.makeStream(of: Message.self)
    let id = newID()
    locked { messageListeners[id] = continuation }
    continuation.onTermination = { [weak self] _ in self?.locked { _ = self?.messageListeners.removeValue(forKey: id) } }
    return stream
  }

  func intents() -> AsyncStream<PurchaseIntent> {
    let (stream, continuation) = AsyncStream.makeStream(of: PurchaseIntent.self)
    let id = newID()
    locked { intentListeners[id] = continuation }
    continuation.onTermination = { [weak self] _ in self?.locked { _ = self?.intentListeners.removeValue(forKey: id) } }
    return stream
  }

  var hasStatusListeners: Bool { locked { !statusListeners.isEmpty } }
  var hasMessageListeners: Bool { locked { !messageListeners.isEmpty } }

  func yield(_ status: Product.SubscriptionInfo.Status) {
    for listener in locked({ Array(statusListeners.values) }) { listener.yield(status) }
  }

  func yield(_ message: Message) {
    for listener in locked({ Array(messageListeners.values) }) { listener.yield(message) }
  }

  func yield(_ intent: PurchaseIntent) {
    for listener in locked({ Array(intentListeners.values) }) { listener.yield(intent) }
  }
}

extension StoreKitEnvironment {
  /// A new `Status.updates` sequence.
  func addStatusListener() -> AsyncStream<Product.SubscriptionInfo.Status> { StoreKit2Registry.shared.statuses() }
}
