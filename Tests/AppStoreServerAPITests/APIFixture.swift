import AppStoreServerAPI
import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// A store on an in-memory ledger and the API over the same ledger, with helpers to call it.
final class APIFixture {
  let store: TestStore
  let api: AppStoreServerAPI
  let bundleID = StoreEnvironment.defaultBundleID

  init(
    environment: ServerEnvironment = .sandbox, appAppleID: Int64? = nil, signer: (any TransactionSigner)? = nil,
    catalog: Catalog = FixtureCatalog.make()
  ) throws {
    store = try TestStore(catalog: catalog, environment: Self.storeEnvironment(environment))
    api = AppStoreServerAPI(
      ledger: store.ledger, environment: environment, bundleID: StoreEnvironment.defaultBundleID,
      now: { TestStore.start }, appAppleID: appAppleID, signer: signer)
  }

  /// The test store's environment, signing for `environment`.
  static func storeEnvironment(_ environment: ServerEnvironment) -> StoreEnvironment {
    var store = TestStore.environment
    store.signer = UnsignedTestSigner(environment: environment.payloadName)
    return store
  }

  func get(_ path: String, _ query: [(String, String)] = []) -> APIResponse {
    api.handle(APIRequest(method: "GET", path: path, query: query.map { (name: $0.0, value: $0.1) }))
  }

  func send(_ method: String, _ path: String, body: String, _ query: [(String, String)] = []) -> APIResponse {
    api.handle(APIRequest(method: method, path: path, query: query.map { (name: $0.0, value: $0.1) }, body: Data(body.utf8)))
  }

  /// Buys `count` of `product`, finishing each, and returns them in order.
  @discardableResult
  func buy(_ product: Product.ID, count: Int = 1, finish: Bool = true) throws -> [PaymentTransaction] {
    var bought: [PaymentTransaction] = []
    for _ in 0..<count {
      let transaction = try store.buy(product)
      if finish { try store.queue.finish(transaction.id) }
      bought.append(transaction)
    }
    return bought
  }

  /// The stored JWS of transaction `id`.
  func jws(_ id: PaymentTransaction.ID) throws -> String {
    try XCTUnwrap(try store.ledger.transactions([id]).first?.signedTransaction)
  }
}

/// The body as a JSON object (empty when it is not one).
func json(_ response: APIResponse) -> [String: Any] {
  (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
}

/// The `transactionId`s of a response's `signedTransactions`, in order.
func transactionIDs(_ response: APIResponse) -> [String] {
  (json(response)["signedTransactions"] as? [String] ?? []).map { TestStore.payload(of: $0)["transactionId"] as? String ?? "?" }
}

/// Checks that `response` is exactly Apple's error object with `code` and the status its code implies.
func assertAPIError(_ response: APIResponse, _ code: Int64, file: StaticString = #filePath, line: UInt = #line) {
  XCTAssertEqual(response.status, Int(code / 10_000), "status", file: file, line: line)
  XCTAssertEqual(response.contentType, "application/json", file: file, line: line)
  let object = json(response)
  XCTAssertEqual((object["errorCode"] as? NSNumber)?.int64Value, code, String(decoding: response.body, as: UTF8.self), file: file, line: line)
  XCTAssertEqual(Set(object.keys), ["errorCode", "errorMessage"], file: file, line: line)
  XCTAssertFalse((object["errorMessage"] as? String ?? "").isEmpty, file: file, line: line)
}
