import Foundation
import StoreEngine

/// A payment queue wired for tests: in-memory ledger, fixed start, ids from 1000000001, a
/// deterministic signer (structurally valid JWS with a zero signature), and an observer that
/// records every callback.
public final class TestStore {
  public static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
  public let ledger: InMemoryLedgerStore
  public let queue: PaymentQueue
  public let observer = RecordingObserver()

  public init(
    catalog: Catalog = FixtureCatalog.make(), ledger: InMemoryLedgerStore = InMemoryLedgerStore(),
    account: String? = "tester", dialogs: Bool = false, environment: StoreEnvironment = TestStore.environment
  ) throws {
    self.ledger = ledger
    queue = try PaymentQueue(catalog: catalog, ledger: ledger, environment: environment)
    queue.add(observer)
    if let account { try queue.signIn(account) }
    try queue.set(.dialogs(dialogs))
    observer.calls.removeAll()
  }

  /// The environment every test store uses.
  public static let environment = StoreEnvironment(
    signer: TestSigner(), passwordHasher: InsecureTestHasher(), start: start,
    firstTransactionID: 1_000_000_001, seed: 7)

  /// What the sheet for `product` shows at the catalog's list price (USD, the test storefront).
  public static func listPrice(_ product: Product.ID, quantity: Int = 1, catalog: Catalog = FixtureCatalog.make()) -> Money {
    Money((catalog.product(product)?.price ?? 0) * Decimal(quantity), currencyCode: "USD")
  }

  /// What a re-download's sheet shows.
  public static let free = Money(0, currencyCode: "USD")

  /// The decoded payload of a JWS the test signer made (its middle part, as JSON).
  public static func payload(of jws: String?) -> [String: Any] {
    guard let jws else { return [:] }
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let data = Data(base64URLEncoded: parts[1]),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return [:] }
    return object
  }

  /// Buys with dialogs off and returns the transaction.
  @discardableResult
  public func buy(_ product: Product.ID, quantity: Int = 1) throws -> PaymentTransaction {
    let id = try queue.add(Payment(productID: product, quantity: quantity))
    guard let transaction = try queue.transaction(id) else { throw TestStoreError.missing(id) }
    return transaction
  }

  public enum TestStoreError: Error { case missing(PaymentTransaction.ID) }
}

/// Records observer callbacks as readable strings, in order.
public final class RecordingObserver: PaymentTransactionObserver {
  public var calls: [String] = []
  public init() {}
  public func updatedTransactions(_ transactions: [PaymentTransaction]) {
    calls += transactions.map { "updated \($0.id) \($0.productID) \($0.state.name)" + ($0.error.map { " \($0.name)" } ?? "") }
  }
  public func removedTransactions(_ transactions: [PaymentTransaction]) {
    calls += transactions.map { "removed \($0.id)" }
  }
  public func restoreCompletedTransactionsFinished() { calls.append("restoreFinished") }
  public func restoreCompletedTransactionsFailed(with error: StoreKitError) { calls.append("restoreFailed \(error.name)") }
}

/// A fast, NOT secure password hasher for unit tests only (the product uses PBKDF2 via OpenSSL).
public struct InsecureTestHasher: PasswordHasher {
  public init() {}
  public func hash(password: String) throws -> PasswordHash {
    PasswordHash(algorithm: "test", iterations: 1, salt: "", hash: String(password.reversed()))
  }
  public func verify(password: String, against stored: PasswordHash) -> Bool {
    stored.hash == String(password.reversed())
  }
}

/// Signs with a fixed, fake signature of 0x01 bytes: structurally valid, deterministic, never
/// verifiable, and distinct from the all-zero signature of a simulated verification failure.
public struct TestSigner: TransactionSigner {
  public let environment = "Sandbox"
  public init() {}
  public func sign(payload: Data) throws -> String {
    let header = Data(#"{"alg":"ES256","typ":"JWT","x5c":[]}"#.utf8)
    return [header, payload, Data(repeating: 1, count: 64)].map(\.base64URLEncoded).joined(separator: ".")
  }
}
