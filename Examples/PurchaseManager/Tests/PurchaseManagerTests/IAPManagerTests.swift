import PurchaseManager
import StoreKit
import StoreKitTest
import XCTest

/// Records what the manager tells its delegate.
@MainActor
final class RecordingDelegate: IAPManagerDelegate {
  var events: [String] = []
  var onEvent: (() -> Void)?

  func iapManagerDidFinishPurchase(_ productIdentifier: String) { note("purchased \(productIdentifier)") }
  func iapManagerDidStartPurchase() { note("purchasing") }
  func iapManagerDidFinishRestore(_ productIdentifiers: [String]) { note("restored \(productIdentifiers.joined(separator: ","))") }
  func iapManagerDidFailRestoreNeverPurchased() { note("nothing to restore") }
  func iapManagerDidFailRestore(_ error: any Error) { note("restore failed") }
  func iapManagerDidFailPurchase(_ code: SKError.Code) { note("failed \(code.rawValue)") }
  func iapManagerDidDeferPurchase() { note("deferred") }

  private func note(_ event: String) {
    events.append(event)
    onEvent?()
  }
}

// Tests run on the main thread (XCTest), so its state is only touched there.
final class IAPManagerTests: XCTestCase, @unchecked Sendable {
  var session: SKTestSession!
  var delegate: RecordingDelegate!

  override func setUpWithError() throws {
    session = try SKTestSession(configurationFileNamed: "Products")
    session.disableDialogs = true
    delegate = onMain {
      let delegate = RecordingDelegate()
      IAPManager.shared.reset()
      IAPManager.shared.delegate = delegate
      SKPaymentQueue.default().add(IAPManager.shared)
      return delegate
    }
  }

  override func tearDown() {
    onMain { SKPaymentQueue.default().remove(IAPManager.shared) }
  }

  func testBuyTellsTheDelegateInOrder() {
    onMain {
      IAPManager.shared.buy(productIdentifier: shopping)
      waitForEvents(2)
      XCTAssertEqual(delegate.events, ["purchasing", "purchased \(shopping)"])
      XCTAssertFalse(IAPManager.shared.isBuying)
    }
  }

  func testRestoreWithNothingToRestore() {
    onMain {
      IAPManager.shared.restore()
      waitForEvents(1)
      XCTAssertEqual(delegate.events, ["nothing to restore"])
    }
  }

  func testRestoreAfterABuy() {
    onMain {
      IAPManager.shared.buy(productIdentifier: shopping)
      waitForEvents(2)
      IAPManager.shared.restore()
      waitForEvents(3)
      XCTAssertEqual(delegate.events.last, "restored \(shopping)")
    }
  }

  func testAskToBuyIsDeferredThenApproved() throws {
    try onMain {
      session.askToBuyEnabled = true
      IAPManager.shared.buy(productIdentifier: shopping)
      waitForEvents(2)
      XCTAssertEqual(delegate.events, ["purchasing", "deferred"])
      let pending = try XCTUnwrap(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
      try session.approveAskToBuyTransaction(identifier: pending.identifier)
      waitForEvents(3)
      XCTAssertEqual(delegate.events.last, "purchased \(shopping)")
    }
  }

  func testCancelOnTheSheetIsPaymentCancelled() throws {
    try onMain {
      session.disableDialogs = false
      IAPManager.shared.buy(productIdentifier: shopping)
      waitForEvents(1)
      try session.cancelPurchaseSheet()
      waitForEvents(2)
      XCTAssertEqual(delegate.events, ["purchasing", "failed \(SKError.paymentCancelled.rawValue)"])
    }
  }

  func testUnknownProductIsNotAvailable() {
    onMain {
      IAPManager.shared.buy(productIdentifier: "com.example.not.sold")
      waitForEvents(1)
      XCTAssertEqual(delegate.events, ["failed \(SKError.storeProductNotAvailable.rawValue)"])
    }
  }

  /// Waits until the delegate heard `count` events (callbacks arrive on the main queue).
  @MainActor
  func waitForEvents(_ count: Int) {
    guard delegate.events.count < count else { return }
    let heard = expectation(description: "\(count) delegate events")
    let delegate = self.delegate
    delegate?.onEvent = {
      if let delegate, delegate.events.count == count { heard.fulfill() }
    }
    wait(for: [heard], timeout: 5)
    delegate?.onEvent = nil
  }
}
