import Foundation
import StoreEngine
import StoreKit
import StoreKitTest
import StoreScenario
import StorefrontTestSupport
import XCTest

/// The fixture catalog's products (Catalog/Default.storekit, copied as the test target's resource).
enum IDs {
  static let shopping = "com.jake.sample.ExInAppPurchase.shopping"
  static let coins100 = "com.jake.sample.ExInAppPurchase.coins100"
  static let coins500 = "com.jake.sample.ExInAppPurchase.coins500"
  static let seasonPass = "com.jake.sample.ExInAppPurchase.seasonpass"
  static let monthly = "com.jake.sample.ExInAppPurchase.premium.monthly"
  static let yearly = "com.jake.sample.ExInAppPurchase.premium.yearly"
}

/// A fresh session per test, an observer that writes each callback as a line, and the same flow
/// run by the scenario runner for comparison: the library and the runner are two front ends of one
/// engine, so their callbacks must come in the same order with the same values.
class StoreKitTestCase: XCTestCase {
  var session: SKTestSession!
  var observer: RecordingQueueObserver!

  static var catalogURL: URL {
    get throws {
      try XCTUnwrap(Bundle.module.url(forResource: "Products", withExtension: "storekit"))
    }
  }

  override func setUpWithError() throws {
    session = try SKTestSession(contentsOf: Self.catalogURL)
    session.disableDialogs = true
    observer = RecordingQueueObserver()
    SKPaymentQueue.default().add(observer)
  }

  override func tearDown() {
    if let observer { SKPaymentQueue.default().remove(observer) }
    observer = nil
    session = nil
  }

  /// Loads one product with a products request.
  func loadProduct(_ id: String) throws -> SKProduct {
    let done = expectation(description: "products")
    let delegate = RecordingRequestDelegate(done)
    let request = SKProductsRequest(productIdentifiers: [id])
    request.delegate = delegate
    request.start()
    wait(for: [done], timeout: 10)
    return try XCTUnwrap(delegate.response?.products.first)
  }

  /// Runs an `SKReceiptRefreshRequest` to its end; whether the delegate heard it finish.
  func refreshReceipt() -> Bool {
    let done = expectation(description: "refreshed")
    let delegate = RecordingRequestDelegate(done)
    let refresh = SKReceiptRefreshRequest()
    refresh.delegate = delegate
    refresh.start()
    wait(for: [done], timeout: 10)
    return delegate.finished
  }

  /// Runs the main queue until every callback scheduled so far (and those they schedule, `rounds`
  /// deep) has run: StoreKit's callbacks are main-queue blocks, so this is a bounded wait for a
  /// condition, never a sleep.
  func drainMainQueue(rounds: Int = 3) {
    for _ in 0..<rounds {
      let drained = expectation(description: "main queue drained")
      DispatchQueue.main.async { drained.fulfill() }
      wait(for: [drained], timeout: 10)
    }
  }

  /// The observer callbacks the scenario runner's log shows for `script` on a fresh in-memory store
  /// of the same catalog, in the recording observer's words.
  func scenarioCallbacks(_ script: String) throws -> [String] {
    let catalog = try CatalogLoader.load(path: Self.catalogURL.path)
    let queue = try PaymentQueue(catalog: catalog, ledger: InMemoryLedgerStore(), environment: TestStore.environment)
    try queue.signIn("tester")
    var lines: [String] = []
    let steps = try ScenarioParser(catalog: catalog).parse(script).get()
    let outcome = ScenarioRunner(queue: queue, json: true) { lines.append($0) }.run(steps)
    XCTAssertEqual(outcome, .passed(steps: steps.count), lines.joined(separator: "\n"))
    return lines.compactMap { line -> String? in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let event = object["event"] as? String
      else { return nil }
      let product = object["productId"] as? String ?? ""
      switch event {
      case "transactionUpdated":
        let error = (object["error"] as? [String: Any])?["code"] as? Int
        return "updated \(product) \(object["state"] as? String ?? "")" + (error.map { " error \($0)" } ?? "")
      case "transactionRemoved": return "removed \(product)"
      case "restoreFinished": return "restoreFinished"
      case "restoreFailed": return "restoreFailed"
      case "storefrontChanged": return "storefrontChanged"
      default: return nil
      }
    }
  }
}

/// Writes each payment-queue callback as a line; finishes transactions when told to.
final class RecordingQueueObserver: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
  var lines: [String] = []
  var transactions: [SKPaymentTransaction] = []
  var restoreError: (any Error)?
  /// Finish purchased, restored and failed transactions in the callback, as the seeds do.
  var finishes = false
  /// The answer to `shouldAddStorePayment`, and what it was asked.
  var addsStorePayments = true
  var storePayments: [(payment: SKPayment, product: SKProduct)] = []

  func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
    XCTAssertTrue(Thread.isMainThread, "StoreKit calls observers on the main queue")
    for transaction in transactions {
      self.transactions.append(transaction)
      let state =
        switch transaction.transactionState {
        case .purchasing: "purchasing"
        case .purchased: "purchased"
        case .failed: "failed"
        case .restored: "restored"
        case .deferred: "deferred"
        }
      let code = (transaction.error as NSError?)?.code
      lines.append("updated \(transaction.payment.productIdentifier) \(state)" + (code.map { " error \($0)" } ?? ""))
      if finishes, transaction.transactionState != .purchasing, transaction.transactionState != .deferred {
        queue.finishTransaction(transaction)
      }
    }
  }

  func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
    lines += transactions.map { "removed \($0.payment.productIdentifier)" }
  }

  func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
    lines.append("restoreFinished")
  }

  func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
    restoreError = error
    lines.append("restoreFailed")
  }

  func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {
    lines.append("storefrontChanged")
  }

  func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool {
    XCTAssertTrue(Thread.isMainThread)
    storePayments.append((payment, product))
    return addsStorePayments
  }
}

/// A products-request delegate that keeps what it heard.
final class RecordingRequestDelegate: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
  var response: SKProductsResponse?
  var error: (any Error)?
  var finished = false
  let done: XCTestExpectation

  init(_ done: XCTestExpectation) { self.done = done }

  func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
    self.response = response
  }

  func requestDidFinish(_ request: SKRequest) {
    finished = true
    done.fulfill()
  }

  func request(_ request: SKRequest, didFailWithError error: any Error) {
    self.error = error
    done.fulfill()
  }
}

/// Apple's deprecated session members, reached through a protocol: the tests that cover them compile
/// without the deprecation warnings app code gets (the members still run as Apple's do).
protocol DeprecatedSessionMembers: AnyObject {
  var failTransactionsEnabled: Bool { get set }
  var failureError: SKError.Code { get set }
  func buyProduct(productIdentifier: String) throws
}

extension SKTestSession: DeprecatedSessionMembers {
  /// The deprecated members, without a warning at each use.
  var legacy: any DeprecatedSessionMembers { self }
}
