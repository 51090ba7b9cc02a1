import Foundation
internal import StoreEngine
internal import StoreScenario

extension Transaction {
  /// An asynchronous sequence of verified or unverified transactions.
  public struct Transactions: AsyncSequence, Sendable {
    public typealias Element = VerificationResult<Transaction>
    let stream: AsyncStream<Element>

    public struct AsyncIterator: AsyncIteratorProtocol {
      var base: AsyncStream<Element>.AsyncIterator
      public mutating func next() async -> Element? { await base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }

    /// A finite sequence of `elements`.
    init(_ elements: [Element]) {
      stream = AsyncStream { continuation in
        for element in elements { continuation.yield(element) }
        continuation.finish()
      }
    }

    init(stream: AsyncStream<Element>) { self.stream = stream }
  }

  /// Transactions made outside a `purchase()` call of this process, as they happen: Ask to Buy
  /// approvals, renewals, refunds, resolved interrupted purchases, StoreKit 1 purchases, purchases
  /// by `SKTestSession.buyProduct`. The sequence hears what happens after it was made: make it (and
  /// its iterator) before the action it should see.
  public static var updates: Transactions { Transactions(stream: StoreKitEnvironment.shared.addUpdatesListener()) }

  /// Every transaction of the account, oldest first: no restored copies, no finished consumables.
  public static var all: Transactions {
    Transactions(StoreKitEnvironment.shared.query { store, history in
      history.filter { $0.state == .purchased && !($0.productKind == .consumable && $0.isFinished) }
    })
  }

  /// The transactions that entitle the account now (Apple's rules, ``StoreScenario/StoreKit2Queries``).
  public static var currentEntitlements: Transactions {
    Transactions(StoreKitEnvironment.shared.query { store, history in
      StoreKit2Queries.currentEntitlements(history: history, subscriptions: store.queue.subscriptions())
    })
  }

  /// Every transaction of the account for `productID`, oldest first (as ``all``, one product).
  public static func all(for productID: String) -> Transactions {
    Transactions(StoreKitEnvironment.shared.query { store, history in
      history.filter {
        $0.productID.rawValue == productID && $0.state == .purchased && !($0.productKind == .consumable && $0.isFinished)
      }
    })
  }

  /// The transactions that entitle the account to `productID` now.
  public static func currentEntitlements(for productID: String) -> Transactions {
    Transactions(StoreKitEnvironment.shared.query { store, history in
      StoreKit2Queries.currentEntitlements(history: history, subscriptions: store.queue.subscriptions())
        .filter { $0.productID.rawValue == productID }
    })
  }

  /// The purchased transactions the app has not finished yet.
  public static var unfinished: Transactions {
    Transactions(StoreKitEnvironment.shared.query { store, _ in StoreKit2Queries.unfinished(store.queue.unfinishedTransactions) })
  }

  /// The product's newest transaction (refunded or not), or nil.
  public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
    StoreKitEnvironment.shared.query { _, history in
      StoreKit2Queries.latest(for: .init(productID), history: history).map { [$0] } ?? []
    }.first
  }

  /// The transaction that entitles the account to `productID` now, or nil.
  @available(*, deprecated, message: "Use the currentEntitlements(for:) method instead.")
  public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
    StoreKitEnvironment.shared.query { store, history in
      StoreKit2Queries.currentEntitlements(history: history, subscriptions: store.queue.subscriptions())
        .filter { $0.productID.rawValue == productID }
    }.last
  }
}

extension StoreKitEnvironment {
  /// The transactions `select` picks from the signed-in account's history, verified; empty (with a
  /// report) when the ledger cannot be read.
  func query(
    _ select: (OpenStore, [StoreEngine.PaymentTransaction]) -> [StoreEngine.PaymentTransaction]
  ) -> [VerificationResult<Transaction>] {
    do {
      return try read { store in
        select(store, try store.queue.history()).map { verification(of: $0, in: store) }
      }
    } catch {
      report("reading the transactions failed: \(describe(error))")
      return []
    }
  }
}
