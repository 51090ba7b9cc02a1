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
  /// Read from the ledger a page at a time as the app iterates: never the whole history at once.
  public static var all: Transactions {
    Transactions(paging: .storeKitAll())
  }

  /// The transactions that entitle the account now (Apple's rules, ``StoreScenario/StoreKit2Queries``),
  /// from the present: the store's working set holds every row entitlement depends on.
  public static var currentEntitlements: Transactions {
    Transactions(StoreKitEnvironment.shared.presentQuery { store, present in
      StoreKit2Queries.currentEntitlements(history: present, subscriptions: store.queue.subscriptions())
    })
  }

  /// Every transaction of the account for `productID`, oldest first (as ``all``, one product).
  public static func all(for productID: String) -> Transactions {
    Transactions(paging: .storeKitAll(productID: .init(productID)))
  }

  /// The transactions that entitle the account to `productID` now.
  public static func currentEntitlements(for productID: String) -> Transactions {
    Transactions(StoreKitEnvironment.shared.presentQuery { store, present in
      StoreKit2Queries.currentEntitlements(history: present, subscriptions: store.queue.subscriptions())
        .filter { $0.productID.rawValue == productID }
    })
  }

  /// The purchased transactions the app has not finished yet.
  public static var unfinished: Transactions {
    Transactions(StoreKitEnvironment.shared.presentQuery { store, _ in StoreKit2Queries.unfinished(store.queue.unfinishedTransactions) })
  }

  /// The product's newest transaction (refunded or not), or nil.
  public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
    StoreKitEnvironment.shared.presentQuery { store, _ in
      // One indexed read: the newest purchased row of the product; a non-consumable's is its chain's original.
      guard let newest = try store.queue.latestTransaction(matching: TransactionMatch(product: .init(productID), state: .purchased))
      else { return [] }
      guard newest.productKind == .nonConsumable, newest.id != newest.originalID else { return [newest] }
      return [try store.queue.transaction(newest.originalID) ?? newest]
    }.first
  }

  /// The transaction that entitles the account to `productID` now, or nil.
  @available(*, deprecated, message: "Use the currentEntitlements(for:) method instead.")
  public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
    StoreKitEnvironment.shared.presentQuery { store, present in
      StoreKit2Queries.currentEntitlements(history: present, subscriptions: store.queue.subscriptions())
        .filter { $0.productID.rawValue == productID }
    }.last
  }
}

extension StoreKitEnvironment {
  /// The transactions `select` picks from the signed-in account's present (the store's working set:
  /// unfinished transactions, each chain's first and current period; ``PaymentQueue/presentTransactions(account:)``),
  /// verified; empty (with a report) when the ledger cannot be read. No whole-history read.
  func presentQuery(
    _ select: (OpenStore, [StoreEngine.PaymentTransaction]) throws -> [StoreEngine.PaymentTransaction]
  ) -> [VerificationResult<Transaction>] {
    do {
      return try read { store in
        try select(store, store.queue.presentTransactions()).map { verification(of: $0, in: store) }
      }
    } catch {
      report("reading the transactions failed: \(describe(error))")
      return []
    }
  }

  /// One page of at most `limit` rows of the signed-in account's history after `cursor` that
  /// `filter` keeps, and where the next page starts (nil: this was the last). Not yet verified: a row
  /// is verified when the app reaches it (``verified(_:)``).
  func historyPage(
    after cursor: HistoryCursor?, limit: Int, keeping filter: HistoryFilter
  ) -> (rows: [StoreEngine.PaymentTransaction], next: HistoryCursor?) {
    do {
      return try read { store in
        guard let account = store.queue.currentAccount else { return ([], nil) }
        let page = try store.queue.ledger.historyPage(account: account, after: cursor, limit: limit, keeping: filter)
        return (page.rows, page.next)
      }
    } catch {
      report("reading the transactions failed: \(describe(error))")
      return ([], nil)
    }
  }

  /// `transaction` verified as the app gets it; nil when the store cannot be opened.
  func verified(_ transaction: StoreEngine.PaymentTransaction) -> VerificationResult<Transaction>? {
    try? read { store in verification(of: transaction, in: store) }
  }

  /// Rows of `Transaction.all`'s first page, then of each next one (doubling up to the largest):
  /// an app that reads only the first rows decodes about those, one that reads all makes few queries.
  static let historyPageSizes = (first: 50, largest: 200)
}

extension Transaction.Transactions {
  /// The signed-in account's history in insertion order, the rows `filter` keeps, read a page at a
  /// time as the iterator asks for more (``StoreKitEnvironment/historyPageSizes``).
  init(paging filter: HistoryFilter) {
    typealias Paging = (buffer: [StoreEngine.PaymentTransaction], cursor: HistoryCursor?, done: Bool, limit: Int)
    let state = Locked<Paging>(([], nil, false, StoreKitEnvironment.historyPageSizes.first))
    self.init(stream: AsyncStream(unfolding: {
      while true {
        if let next = state.withLock({ state -> StoreEngine.PaymentTransaction? in
          guard !state.buffer.isEmpty else { return nil }
          return state.buffer.removeFirst()
        }) {
          guard let verified = StoreKitEnvironment.shared.verified(next) else { return nil }
          return verified
        }
        let (cursor, done, limit) = state.withLock { ($0.cursor, $0.done, $0.limit) }
        if done { return nil }
        let page = StoreKitEnvironment.shared.historyPage(after: cursor, limit: limit, keeping: filter)
        state.withLock { state in
          state.buffer = page.rows
          state.cursor = page.next
          state.done = page.next == nil
          state.limit = Swift.min(limit * 2, StoreKitEnvironment.historyPageSizes.largest)
        }
      }
    }))
  }
}
