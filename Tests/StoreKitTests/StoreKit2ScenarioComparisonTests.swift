import Foundation
import StoreEngine
import StoreKit
import StoreKitTest
import StoreScenario
import StorefrontTestSupport
import XCTest

/// One StoreKit 2 flow through the library and through the scenario runner's StoreKit 2 view: the
/// same `purchase()` results and `Transaction.updates`, in the same order.
final class StoreKit2ScenarioComparisonTests: StoreKitTestCase {
  func testAskToBuyRenewalAndRefundMatchTheScenarioRunner() async throws {
    var log: [String] = []
    var updates = Transaction.updates.makeAsyncIterator()
    session.askToBuyEnabled = true
    let shoppingProduct = try await XCTUnwrapFirst(Product.products(for: [IDs.shopping]))
    if case .pending = try await shoppingProduct.purchase() { log.append("purchase \(IDs.shopping) pending") }
    let pending = try XCTUnwrap(session.allTransactions().last)
    try session.approveAskToBuyTransaction(identifier: pending.identifier)
    if let update = await updates.next() { log.append("update \(update.unsafePayloadValue.productID)") }
    session.askToBuyEnabled = false
    session.timeRate = .monthlyRenewalEveryThirtySeconds
    let monthly = try await XCTUnwrapFirst(Product.products(for: [IDs.monthly]))
    if case .success(let bought) = try await monthly.purchase() { log.append("purchase \(bought.unsafePayloadValue.productID) success") }
    try session.advance(by: 31)
    // One renewal: the free trial's period (10 s at this rate) ends inside the 31 s.
    if let update = await updates.next() { log.append("update \(update.unsafePayloadValue.productID)") }
    let renewed = try XCTUnwrap(session.allTransactions().last)
    try session.refundTransaction(identifier: renewed.identifier)
    if let update = await updates.next() { log.append("update \(update.unsafePayloadValue.productID)") }

    let expected = try scenarioStoreKit2Log("""
      set dialogs off
      set ask-to-buy on
      buy \(IDs.shopping)
      approve last
      set ask-to-buy off
      set time-rate monthly-every-30s
      buy \(IDs.monthly)
      advance 31s
      refund last
      """)
    XCTAssertEqual(log, expected)
    XCTAssertEqual(log.count, 5)
  }

  func XCTUnwrapFirst(_ products: [StoreKit.Product]) throws -> StoreKit.Product { try XCTUnwrap(products.first) }

  /// The `purchase()` results and `Transaction.updates` of the scenario runner's StoreKit 2 view.
  func scenarioStoreKit2Log(_ script: String) throws -> [String] {
    let catalog = try CatalogLoader.load(path: Self.catalogURL.path)
    let queue = try PaymentQueue(catalog: catalog, ledger: InMemoryLedgerStore(), environment: TestStore.environment)
    try queue.signIn("tester")
    var lines: [String] = []
    let steps = try ScenarioParser(catalog: catalog).parse(script).get()
    let outcome = ScenarioRunner(queue: queue, json: true, api: .storeKit2) { lines.append($0) }.run(steps)
    XCTAssertEqual(outcome, .passed(steps: steps.count), lines.joined(separator: "\n"))
    return lines.compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
      let product = object["productId"] as? String ?? ""
      switch object["event"] as? String {
      case "purchaseResult": return "purchase \(product) \(object["result"] as? String ?? "")"
      case "transactionUpdate": return "update \(product)"
      default: return nil
      }
    }
  }
}
