import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// StoreKit 1: the payment queue's callbacks against the scenario runner's log of the same flow.
final class PaymentQueueCallbackTests: StoreKitTestCase {
  func testPurchaseAndFinishCallbacksMatchTheScenarioRunner() throws {
    let product = try loadProduct(IDs.coins100)
    SKPaymentQueue.default().add(SKPayment(product: product))
    drainMainQueue()
    let purchased = try XCTUnwrap(observer.transactions.last)
    XCTAssertEqual(purchased.transactionState, .purchased)
    XCTAssertNotNil(purchased.transactionIdentifier)
    SKPaymentQueue.default().finishTransaction(purchased)
    drainMainQueue()
    XCTAssertEqual(observer.lines, try scenarioCallbacks("set dialogs off\nbuy \(IDs.coins100)\nfinish last\n"))
    XCTAssertEqual(observer.lines, ["updated \(IDs.coins100) purchasing", "updated \(IDs.coins100) purchased", "removed \(IDs.coins100)"])
    XCTAssertTrue(SKPaymentQueue.default().transactions.isEmpty)
  }

  /// `restoreCompletedTransactions(withApplicationUsername:)` restores only what that user bought.
  func testRestoreWithAnApplicationUsernameRestoresOnlyThatUsersPurchases() throws {
    observer.finishes = true
    let alice = SKMutablePayment(product: try loadProduct(IDs.shopping))
    alice.applicationUsername = "alice"
    let bob = SKMutablePayment(product: try loadProduct(IDs.monthly))
    bob.applicationUsername = "bob"
    SKPaymentQueue.default().add(alice)
    SKPaymentQueue.default().add(bob)
    drainMainQueue()
    observer.lines = []
    SKPaymentQueue.default().restoreCompletedTransactions(withApplicationUsername: "alice")
    drainMainQueue()
    XCTAssertEqual(observer.lines, ["updated \(IDs.shopping) restored", "restoreFinished", "removed \(IDs.shopping)"])
    observer.lines = []
    SKPaymentQueue.default().restoreCompletedTransactions(withApplicationUsername: nil)
    drainMainQueue()
    XCTAssertEqual(observer.lines.filter { $0.hasSuffix("restored") }.count, 2, "nil restores everything")
  }

  func testRestoreDeliversRestoredTransactionsThenFinished() throws {
    observer.finishes = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.shopping)))
    drainMainQueue()
    SKPaymentQueue.default().restoreCompletedTransactions()
    drainMainQueue()
    XCTAssertEqual(
      observer.lines,
      try scenarioCallbacks("set dialogs off\nbuy \(IDs.shopping)\nfinish last\nrestore\nfinish all\n"))
    // The restore finishes in the same step as its transactions; the app's finish is a later step.
    XCTAssertEqual(observer.lines.suffix(3), ["updated \(IDs.shopping) restored", "restoreFinished", "removed \(IDs.shopping)"])
    let restored = try XCTUnwrap(observer.transactions.last)
    XCTAssertEqual(restored.original?.payment.productIdentifier, IDs.shopping)
  }

  func testAskToBuyIsDeferredThenPurchasedOnApproval() throws {
    session.askToBuyEnabled = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.shopping)))
    drainMainQueue()
    XCTAssertEqual(observer.transactions.last?.transactionState, .deferred)
    let pending = try XCTUnwrap(session.allTransactions().last)
    XCTAssertTrue(pending.pendingAskToBuyConfirmation)
    try session.approveAskToBuyTransaction(identifier: pending.identifier)
    drainMainQueue()
    XCTAssertEqual(observer.lines, try scenarioCallbacks("set dialogs off\nset ask-to-buy on\nbuy \(IDs.shopping)\napprove last\n"))
    XCTAssertEqual(observer.transactions.last?.transactionState, .purchased)
  }

  func testFailureUsesTheChosenErrorCodeAndHasNoIdentifier() throws {
    session.legacy.failureError = .paymentNotAllowed
    session.legacy.failTransactionsEnabled = true
    observer.finishes = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    let failed = try XCTUnwrap(observer.transactions.last)
    XCTAssertEqual(failed.transactionState, .failed)
    let error = try XCTUnwrap(failed.error as? SKError)
    XCTAssertEqual(error.code, .paymentNotAllowed)
    XCTAssertEqual((failed.error as NSError?)?.domain, SKErrorDomain)
    XCTAssertEqual((failed.error as NSError?)?.code, SKError.paymentNotAllowed.rawValue)
    // B3: StoreKit gives failed transactions no identifier and no date.
    XCTAssertNil(failed.transactionIdentifier)
    XCTAssertNil(failed.transactionDate)
    XCTAssertEqual(observer.lines, try scenarioCallbacks("set dialogs off\nfail purchase paymentNotAllowed\nbuy \(IDs.coins100)\nfinish last\n"))
  }

  func testCancellingTheSheetFailsWithPaymentCancelled() throws {
    session.disableDialogs = false
    observer.finishes = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    XCTAssertEqual(observer.lines, ["updated \(IDs.coins100) purchasing"])
    try session.cancelPurchaseSheet()
    drainMainQueue()
    XCTAssertEqual((observer.transactions.last?.error as? SKError)?.code, .paymentCancelled)
    XCTAssertEqual(observer.lines, try scenarioCallbacks("buy \(IDs.coins100)\ncancel\nfinish last\n"))
  }

  func testConfirmingTheSheetPurchases() throws {
    session.disableDialogs = false
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins500)))
    try session.confirmPurchaseSheet()
    drainMainQueue()
    XCTAssertEqual(observer.lines, try scenarioCallbacks("buy \(IDs.coins500)\nconfirm\n"))
  }

  func testQuantityAndApplicationUsernameReachTheTransaction() throws {
    let payment = SKMutablePayment(product: try loadProduct(IDs.coins500))
    payment.quantity = 3
    payment.applicationUsername = "0C8F3B0E-7D5A-4E8B-9E55-111111111111"
    SKPaymentQueue.default().add(payment)
    payment.quantity = 5  // a change after adding does not reach the transaction
    drainMainQueue()
    let purchased = try XCTUnwrap(observer.transactions.last)
    XCTAssertEqual(purchased.payment.quantity, 3)
    XCTAssertEqual(purchased.payment.applicationUsername, payment.applicationUsername)
    XCTAssertEqual(session.allTransactions().last?.quantity, 3)
  }

  func testOneObjectPerTransactionUpdatedInPlace() throws {
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    XCTAssertEqual(observer.transactions.count, 2)
    XCTAssertTrue(observer.transactions[0] === observer.transactions[1])
    XCTAssertEqual(SKPaymentQueue.default().transactions.first, observer.transactions[0])
  }

  func testANewObserverHearsTheUnfinishedTransactions() throws {
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    let late = RecordingQueueObserver()
    SKPaymentQueue.default().add(late)
    defer { SKPaymentQueue.default().remove(late) }
    drainMainQueue()
    XCTAssertEqual(late.lines, ["updated \(IDs.coins100) purchased"])
  }

  func testStorefrontChangeIsAnnouncedAndRepricesProducts() throws {
    session.storefront = "KOR"
    drainMainQueue()
    XCTAssertEqual(observer.lines, ["storefrontChanged"])
    XCTAssertEqual(SKPaymentQueue.default().storefront?.countryCode, "KOR")
    XCTAssertEqual(SKPaymentQueue.default().storefront?.identifier, "143466")
    let product = try loadProduct(IDs.coins100)
    XCTAssertEqual(product.price, NSDecimalNumber(string: "1"))
    XCTAssertEqual(product.priceLocale.currency?.identifier, "KRW")
  }

  func testCanMakePaymentsFollowsTheSession() {
    XCTAssertTrue(SKPaymentQueue.canMakePayments())
  }
}
