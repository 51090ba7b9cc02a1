import StoreKit

/// A StoreKit 2 store: products, purchases, and what the account is entitled to, kept current from
/// `Transaction.updates` (renewals, refunds, Ask to Buy approvals arrive there).
@MainActor
public final class Store {
  /// What changed in the store after an update from `Transaction.updates`.
  public enum Change: Sendable, Equatable {
    case entitlementsChanged(Set<String>)
  }

  public private(set) var products: [Product] = []
  /// The products the account is entitled to now.
  public private(set) var purchasedProductIDs: Set<String> = []
  /// One element per update the store handled, after it refreshed its entitlements.
  public nonisolated let changes: AsyncStream<Change>
  private let changesContinuation: AsyncStream<Change>.Continuation
  private var listener: Task<Void, Never>?

  public init() {
    (changes, changesContinuation) = AsyncStream.makeStream(of: Change.self)
  }

  /// Starts listening for transactions made outside `purchase()`. The sequence is taken now, so
  /// nothing that happens after `start()` returns is missed.
  public func start() {
    let updates = Transaction.updates
    listener = Task { [weak self] in
      for await result in updates {
        guard let self else { return }
        await self.handle(result)
      }
    }
  }

  public func stop() {
    listener?.cancel()
    listener = nil
  }

  public func loadProducts(_ identifiers: [String]) async throws {
    products = try await Product.products(for: identifiers).sorted { $0.price < $1.price }
  }

  /// Buys `product`: the verified transaction once delivered and finished, or nil when the user
  /// cancelled or the purchase waits for approval.
  ///
  /// - Throws: ``StoreError/failedVerification`` for a transaction whose signature does not check out.
  @discardableResult
  public func purchase(_ product: Product, quantity: Int = 1) async throws -> Transaction? {
    let result = try await product.purchase(options: quantity == 1 ? [] : [.quantity(quantity)])
    switch result {
    case .success(let verification):
      let transaction = try checked(verification)
      await refreshEntitlements()
      await transaction.finish()
      return transaction
    case .pending, .userCancelled:
      return nil
    @unknown default:
      return nil
    }
  }

  public func restore() async throws {
    try await AppStore.sync()
    await refreshEntitlements()
  }

  public func refreshEntitlements() async {
    var entitled: Set<String> = []
    for await result in Transaction.currentEntitlements {
      if case .verified(let transaction) = result, transaction.revocationDate == nil {
        entitled.insert(transaction.productID)
      }
    }
    purchasedProductIDs = entitled
  }

  private func handle(_ result: VerificationResult<Transaction>) async {
    guard case .verified(let transaction) = result else { return }
    await refreshEntitlements()
    await transaction.finish()
    changesContinuation.yield(.entitlementsChanged(purchasedProductIDs))
  }

  private func checked(_ result: VerificationResult<Transaction>) throws -> Transaction {
    switch result {
    case .verified(let transaction): return transaction
    case .unverified: throw StoreError.failedVerification
    }
  }
}

public enum StoreError: Error, Equatable {
  case failedVerification
}
