import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// The real store's glitches (`SKTestSession.setStoreGlitch`, Storefront's addition; DECISIONS §46):
/// each as SDK vendors documented it, and each survived the way a careful app survives it — it
/// listens to `Transaction.updates` from launch, looks at `Transaction.unfinished`, and retries what
/// failed before any money moved.
final class StoreGlitchTests: StoreKitTestCase {
  /// RevenueCat/purchases-ios#4903: `.userCancelled` for a purchase that succeeded. The ledger has
  /// it; the transaction arrives on `Transaction.updates`, where the careful app delivers and finishes.
  func testCancelledAfterSuccessStillArrivesOnUpdates() async throws {
    try session.setStoreGlitch(.cancelledAfterSuccess, .next(1))
    XCTAssertEqual(session.storeGlitch(.cancelledAfterSuccess), .next(1))
    let product = try await product(IDs.shopping)
    var result: Product.PurchaseResult?
    let updates = try await session.transactionUpdates { result = try await product.purchase() }
    guard case .userCancelled = result else { return XCTFail("expected userCancelled, got \(String(describing: result))") }
    XCTAssertEqual(session.allTransactions().map(\.state), [.purchased], "the purchase did succeed")
    XCTAssertEqual(updates.map(\.unsafePayloadValue.productID), [IDs.shopping])
    var unfinished: [Transaction] = []
    for await result in Transaction.unfinished { unfinished.append(result.unsafePayloadValue) }
    XCTAssertEqual(unfinished.map(\.productID), [IDs.shopping])
    // The careful app: what updates brings is delivered and finished.
    for update in updates { await update.unsafePayloadValue.finish() }
    var entitled: [String] = []
    for await result in Transaction.currentEntitlements { entitled.append(result.unsafePayloadValue.productID) }
    XCTAssertEqual(entitled, [IDs.shopping])
    // `next` struck once: the next purchase is reported as it happened.
    let coins = try await self.product(IDs.coins100)
    guard case .success(let second) = try await coins.purchase() else { return XCTFail("the glitch struck twice") }
    await second.unsafePayloadValue.finish()
    // Set again, even to the same value, it strikes again.
    try session.setStoreGlitch(.cancelledAfterSuccess, .next(1))
    guard case .userCancelled = try await coins.purchase() else { return XCTFail("setting next again did not re-arm it") }
  }

  /// RevenueCat "iOS 18.2.X Purchase Sheet May Fail to Appear": the call waits; the app's timeout
  /// cancels it (CancellationError), nothing is charged, and a retry without the glitch buys.
  func testSheetNeverAppearsWaitsUntilTheAppGivesUp() async throws {
    try session.setStoreGlitch(.sheetNotShown)
    let product = try await product(IDs.shopping)
    let waiting = Task { try await product.purchase() }
    try await waitUntil { StoreKitEnvironment.shared.stuckPurchaseCount == 1 }
    waiting.cancel()
    do {
      _ = try await waiting.value
      XCTFail("a purchase whose sheet never appeared returned")
    } catch is CancellationError {}
    XCTAssertTrue(session.allTransactions().isEmpty, "nothing is charged")
    XCTAssertEqual(StoreKitEnvironment.shared.stuckPurchaseCount, 0)
    // Switching the glitch off ends a call still waiting.
    let second = Task { try await product.purchase() }
    try await waitUntil { StoreKitEnvironment.shared.stuckPurchaseCount == 1 }
    try session.setStoreGlitch(.sheetNotShown, .off)
    do {
      _ = try await second.value
      XCTFail("the waiting call did not end when the glitch was switched off")
    } catch let error as StoreKitError {
      guard case .unknown = error else { return XCTFail("\(error)") }
    }
    guard case .success = try await product.purchase() else { return XCTFail("the retry did not buy") }
  }

  /// Apple's internal error for products (purchases-ios#6897); the careful app retries.
  func testProductsFailWithTheInternalErrorThenLoadOnRetry() async throws {
    try session.setStoreGlitch(.productsFail, .next(1))
    do {
      _ = try await Product.products(for: [IDs.coins100])
      XCTFail("products loaded")
    } catch let error as StoreKitError {
      guard case .systemError(let underlying) = error else { return XCTFail("\(error)") }
      XCTAssertEqual((underlying as NSError).domain, "SKInternalErrorDomain")
      XCTAssertEqual((underlying as NSError).code, 3)
    }
    let retried = try await Product.products(for: [IDs.coins100])
    XCTAssertEqual(retried.map(\.id), [IDs.coins100])
  }

  /// "1 in N" is the same calls on every run with the same seed (a fresh session counts anew).
  func testOneInNIsReproducibleForASeed() async throws {
    func pattern() async throws -> [Bool] {
      session = try SKTestSession(contentsOf: Self.catalogURL)
      try session.setStoreGlitch(.productsFail, .oneIn(3, seed: 7))
      var failed: [Bool] = []
      for _ in 0..<24 {
        do {
          _ = try await Product.products(for: [IDs.coins100])
          failed.append(false)
        } catch { failed.append(true) }
      }
      return failed
    }
    let first = try await pattern()
    let second = try await pattern()
    XCTAssertEqual(first, second)
    XCTAssertTrue(first.contains(true) && first.contains(false), "\(first)")
  }

  /// RevenueCat "Purchases May Fail Due to StoreKit Daemon Connection Issue": `systemError` over
  /// `NSCocoaErrorDomain` 4097, no money moved; the retry buys.
  func testDaemonDropThrowsAndChargesNothing() async throws {
    try session.setStoreGlitch(.daemonDrop, .next(1))
    let product = try await product(IDs.coins100)
    do {
      _ = try await product.purchase()
      XCTFail("the purchase went through")
    } catch let error as StoreKitError {
      guard case .systemError(let underlying) = error else { return XCTFail("\(error)") }
      XCTAssertEqual((underlying as NSError).domain, NSCocoaErrorDomain)
      XCTAssertEqual((underlying as NSError).code, 4097)
    }
    XCTAssertTrue(session.allTransactions().isEmpty)
    guard case .success = try await product.purchase() else { return XCTFail("the retry did not buy") }
    XCTAssertEqual(session.allTransactions().count, 1)
  }

  /// Late `Transaction.updates`: an approval reaches updates only when the virtual clock passes the
  /// delay; meanwhile the careful app finds it in `Transaction.unfinished`.
  func testLateUpdatesArriveWhenTheClockPassesTheDelay() async throws {
    session.askToBuyEnabled = true
    guard case .pending = try await product(IDs.shopping).purchase() else { return XCTFail("expected pending") }
    let pending = try XCTUnwrap(session.allTransactions().last)
    try session.setStoreGlitch(.lateUpdates)
    let session = self.session!
    let early = try await session.transactionUpdates { try session.approveAskToBuyTransaction(identifier: pending.identifier) }
    XCTAssertTrue(early.isEmpty, "updates came on time: \(early)")
    var unfinished: [String] = []
    for await result in Transaction.unfinished { unfinished.append(result.unsafePayloadValue.productID) }
    XCTAssertEqual(unfinished, [IDs.shopping])
    let notYet = try await session.transactionUpdates { try session.advance(by: 4) }
    XCTAssertTrue(notYet.isEmpty)
    let late = try await session.transactionUpdates { try session.advance(by: 1) }
    XCTAssertEqual(late.map(\.unsafePayloadValue.productID), [IDs.shopping])
  }

  /// hyochan/react-native-iap#2930: the renewal-receipt dialog, cancelled, makes a subscription's
  /// purchase throw `userCancelled`; the subscription is bought and arrives on updates. Other
  /// products are not affected.
  func testRenewalReceiptDialogThrowsUserCancelledForSubscriptionsOnly() async throws {
    try session.setStoreGlitch(.renewalReceiptDialog)
    guard case .success = try await product(IDs.shopping).purchase() else { return XCTFail("a non-subscription was affected") }
    let monthly = try await product(IDs.monthly)
    var thrown: (any Error)?
    let updates = await session.transactionUpdates {
      do { _ = try await monthly.purchase() } catch { thrown = error }
    }
    guard let error = thrown as? StoreKitError, case .userCancelled = error else {
      return XCTFail("expected StoreKitError.userCancelled, got \(String(describing: thrown))")
    }
    XCTAssertEqual(updates.map(\.unsafePayloadValue.productID), [IDs.monthly])
    for update in updates { await update.unsafePayloadValue.finish() }
    let statuses = try await XCTUnwrap(monthly.subscription).status
    XCTAssertEqual(statuses.map(\.state), [.subscribed])
  }

  /// A careful app under five glitches at once, each striking about one call in two (seeded): it
  /// retries what failed before money moved, never retries what was reported cancelled, and finishes
  /// whatever `Transaction.updates` or `Transaction.unfinished` brings. Six purchases wanted, six
  /// charged, none left unfinished, whatever the glitches did.
  func testACarefulAppSurvivesTheGlitchesTogether() async throws {
    try session.setStoreGlitch(.cancelledAfterSuccess, .oneIn(2, seed: 3))
    try session.setStoreGlitch(.productsFail, .oneIn(2, seed: 4))
    try session.setStoreGlitch(.daemonDrop, .oneIn(2, seed: 5))
    try session.setStoreGlitch(.lateUpdates, .oneIn(2, seed: 6))
    try session.setStoreGlitch(.renewalReceiptDialog, .always)
    let session = self.session!
    var delivered: Set<UInt64> = []
    var reportedCancelled = 0
    func deliver(_ results: [VerificationResult<Transaction>]) async {
      for result in results {
        delivered.insert(result.unsafePayloadValue.id)
        await result.unsafePayloadValue.finish()
      }
    }
    for _ in 0..<6 {
      var bought = false
      for _ in 0..<20 where !bought {
        guard let product = try? await Product.products(for: [IDs.coins100]).first else { continue }  // retry the load
        var outcome: Result<Product.PurchaseResult, any Error>?
        let updates = await session.transactionUpdates {
          do { outcome = .success(try await product.purchase()) } catch { outcome = .failure(error) }
        }
        await deliver(updates)
        switch outcome {
        case .success(.success(let result)):
          await deliver([result])
          bought = true
        case .success(.userCancelled):
          // Not retried: the purchase may have gone through (#4903); updates or unfinished will say.
          reportedCancelled += 1
          bought = true
        case .failure(let error as StoreKitError):
          guard case .systemError = error else { return XCTFail("unexpected \(error)") }  // nothing charged: retry
        default:
          return XCTFail("unexpected \(String(describing: outcome))")
        }
      }
      XCTAssertTrue(bought, "twenty tries did not buy")
      // On the next foreground: whatever is unfinished (late updates) is delivered too.
      var unfinished: [VerificationResult<Transaction>] = []
      for await result in Transaction.unfinished { unfinished.append(result) }
      await deliver(unfinished)
    }
    // Late updates that arrive later change nothing: they were delivered already.
    let late = try await session.transactionUpdates { try session.advance(by: 60) }
    XCTAssertTrue(late.allSatisfy { delivered.contains($0.unsafePayloadValue.id) })
    let charged = session.allTransactions().filter { $0.state == .purchased }
    XCTAssertEqual(charged.count, 6, "one charge per purchase wanted")
    XCTAssertEqual(Set(charged.map { UInt64($0.identifier) }), delivered, "every charge was delivered")
    var left = 0
    for await _ in Transaction.unfinished { left += 1 }
    XCTAssertEqual(left, 0)
    XCTAssertGreaterThan(reportedCancelled, 0, "the seeds make cancelled-after-success strike")
  }

  /// StoreKit 1 is unchanged (DECISIONS §46): the observer hears the purchase as it happened.
  func testStoreKit1SeesThePurchaseAsItHappened() throws {
    try session.setStoreGlitch(.cancelledAfterSuccess)
    try session.setStoreGlitch(.renewalReceiptDialog)
    observer.finishes = true
    SKPaymentQueue.default().add(SKPayment(product: try loadProduct(IDs.coins100)))
    drainMainQueue()
    XCTAssertEqual(observer.lines, ["updated \(IDs.coins100) purchasing", "updated \(IDs.coins100) purchased", "removed \(IDs.coins100)"])
  }

  func testASetCountBelowOneIsRefused() {
    XCTAssertThrowsError(try session.setStoreGlitch(.daemonDrop, .next(0)))
    XCTAssertThrowsError(try session.setStoreGlitch(.productsFail, .oneIn(0, seed: 1)))
    XCTAssertEqual(session.storeGlitch(.daemonDrop), .off)
  }

  func product(_ id: String) async throws -> Product {
    let products = try await Product.products(for: [id])
    return try XCTUnwrap(products.first)
  }

  /// Waits (bounded, by yielding) until `condition` holds.
  func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    for _ in 0..<10_000 where !condition() { await Task.yield() }
    XCTAssertTrue(condition(), "condition never held")
  }
}
