import Foundation
import StoreKit
import StoreKitTest
import XCTest

/// StoreKit 2: results, updates and queries, by the rules of the scenario runner's StoreKit 2 view.
final class StoreKit2Tests: StoreKitTestCase {
  func testProductsAreLocalizedAndPriced() async throws {
    let products = try await Product.products(for: [IDs.coins100, IDs.monthly, "com.example.unknown"])
    XCTAssertEqual(products.map(\.id).sorted(), [IDs.coins100, IDs.monthly].sorted())
    let coins = try XCTUnwrap(products.first { $0.id == IDs.coins100 })
    XCTAssertEqual(coins.type, .consumable)
    XCTAssertEqual(coins.price, Decimal(string: "0.99"))
    XCTAssertEqual(coins.displayPrice, "$0.99")
    let monthly = try XCTUnwrap(products.first { $0.id == IDs.monthly })
    XCTAssertEqual(monthly.type, .autoRenewable)
    XCTAssertEqual(monthly.subscription?.subscriptionPeriod.unit, .month)
    XCTAssertNotNil(monthly.subscription?.introductoryOffer)
    let eligible = await monthly.subscription?.isEligibleForIntroOffer
    XCTAssertEqual(eligible, true)
  }

  func testPurchaseReturnsAVerifiedTransactionAndFinishEmptiesUnfinished() async throws {
    let product = try await product(IDs.shopping)
    let result = try await product.purchase()
    guard case .success(let verification) = result, case .verified(let transaction) = verification else {
      return XCTFail("expected a verified success, got \(result)")
    }
    XCTAssertEqual(transaction.productID, IDs.shopping)
    XCTAssertEqual(transaction.productType, .nonConsumable)
    XCTAssertEqual(transaction.price, Decimal(string: "2.99"))
    XCTAssertEqual(transaction.currency?.identifier, "USD")
    XCTAssertEqual(transaction.storefront.countryCode, "USA")
    XCTAssertFalse(verification.jwsRepresentation.isEmpty)
    let observed1 = await collect(Transaction.unfinished).map(\.unsafePayloadValue.id)
    XCTAssertEqual(observed1, [transaction.id])
    let observed2 = await collect(Transaction.currentEntitlements).map(\.unsafePayloadValue.productID)
    XCTAssertEqual(observed2, [IDs.shopping])
    await transaction.finish()
    let observed3 = await collect(Transaction.unfinished).count
    XCTAssertEqual(observed3, 0)
    let latest = await Transaction.latest(for: IDs.shopping)
    XCTAssertEqual(latest?.unsafePayloadValue.id, transaction.id)
    let entitlement = await legacyCurrentEntitlement(for: IDs.shopping)
    XCTAssertEqual(entitlement?.unsafePayloadValue.id, transaction.id)
  }

  func testQuantityAndAppAccountTokenOptions() async throws {
    let token = UUID()
    let result = try await product(IDs.coins500).purchase(options: [.quantity(4), .appAccountToken(token)])
    guard case .success(let verification) = result else { return XCTFail("\(result)") }
    XCTAssertEqual(verification.unsafePayloadValue.purchasedQuantity, 4)
    XCTAssertEqual(verification.unsafePayloadValue.appAccountToken, token)
  }

  func testInvalidQuantityThrows() async throws {
    let product = try await product(IDs.coins500)
    for quantity in [0, 11] {
      do {
        _ = try await product.purchase(options: [.quantity(quantity)])
        XCTFail("quantity \(quantity) was accepted")
      } catch let error as Product.PurchaseError {
        XCTAssertEqual(error, .invalidQuantity)
      }
    }
  }

  func testAskToBuyIsPendingAndTheApprovalArrivesInUpdates() async throws {
    session.askToBuyEnabled = true
    var updates = Transaction.updates.makeAsyncIterator()
    let result = try await product(IDs.shopping).purchase()
    guard case .pending = result else { return XCTFail("expected pending, got \(result)") }
    let pending = try XCTUnwrap(session.allTransactions().last)
    try session.approveAskToBuyTransaction(identifier: pending.identifier)
    let update = await updates.next()
    XCTAssertEqual(update?.unsafePayloadValue.productID, IDs.shopping)
    XCTAssertEqual(update?.unsafePayloadValue.id, UInt64(pending.identifier))
  }

  func testTransactionUpdatesDuringAnActionReturnsItsUpdatesInOrderWithoutWaiting() async throws {
    session.askToBuyEnabled = true
    _ = try await product(IDs.shopping).purchase()
    _ = try await product(IDs.coins100).purchase()
    let pending = session.allTransactions().filter { $0.state == .deferred }.map(\.identifier)
    XCTAssertEqual(pending.count, 2)
    let session = self.session!
    let updates = try await session.transactionUpdates {
      for id in pending.reversed() { try session.approveAskToBuyTransaction(identifier: id) }
    }
    XCTAssertEqual(updates.map(\.unsafePayloadValue.id), pending.reversed().map(UInt64.init))
    let after = await session.transactionUpdates {}
    XCTAssertTrue(after.isEmpty, "a listener hears only what its action causes")
  }

  func testDeclinedAskToBuyTellsTheAppNothing() async throws {
    session.askToBuyEnabled = true
    _ = try await product(IDs.shopping).purchase()
    let pending = try XCTUnwrap(session.allTransactions().last)
    // `await updates.next()` would hang here; the bounded helper returns what came: nothing.
    let session = self.session!
    let updates = try await session.transactionUpdates { try session.declineAskToBuyTransaction(identifier: pending.identifier) }
    XCTAssertTrue(updates.isEmpty, "a declined Ask to Buy reached Transaction.updates: \(updates)")
    XCTAssertEqual(session.allTransactions().last?.state, .deferred)
    let observed4 = await collect(Transaction.currentEntitlements).count
    XCTAssertEqual(observed4, 0)
  }

  func testCancelledSheetIsUserCancelled() async throws {
    session.disableDialogs = false
    let product = try await product(IDs.coins100)
    let session = self.session!
    async let result = product.purchase()
    // The sheet is open once the purchase is in the queue; answer it then.
    try await waitUntil { session.allTransactions().contains { $0.state == .purchasing } }
    try session.cancelPurchaseSheet()
    guard case .userCancelled = try await result else { return XCTFail("expected userCancelled") }
  }

  func testSimulatedPurchaseErrorIsThrown() async throws {
    try await session.setSimulatedError(.purchase(.ineligibleForOffer), forAPI: .purchase)
    do {
      _ = try await product(IDs.coins100).purchase()
      XCTFail("the purchase succeeded")
    } catch let error as Product.PurchaseError {
      XCTAssertEqual(error, .ineligibleForOffer)
    }
    try await session.setSimulatedError(.generic(.networkError(URLError(.notConnectedToInternet))), forAPI: .purchase)
    do {
      _ = try await product(IDs.coins100).purchase()
      XCTFail("the purchase succeeded")
    } catch StoreKitError.networkError {
    }
    try await session.setSimulatedError(nil, forAPI: .purchase)
    guard case .success = try await product(IDs.coins100).purchase() else { return XCTFail("still failing") }
  }

  func testSimulatedLoadProductsErrorIsThrownEveryTime() async throws {
    try await session.setSimulatedError(.generic(.notAvailableInStorefront), forAPI: .loadProducts)
    for _ in 0..<3 {
      do {
        _ = try await Product.products(for: [IDs.coins100])
        XCTFail("products loaded")
      } catch StoreKitError.notAvailableInStorefront {
      }
    }
  }

  func testSimulatedVerificationFailureMakesTransactionsUnverified() async throws {
    try await session.setSimulatedError(.verification(.invalidSignature), forAPI: .verification)
    let result = try await product(IDs.coins100).purchase()
    guard case .success(.unverified(_, let error)) = result else { return XCTFail("expected unverified, got \(result)") }
    XCTAssertEqual(error, .invalidSignature)
  }

  func testRenewalArrivesInUpdatesWhenTheClockAdvances() async throws {
    session.timeRate = .monthlyRenewalEveryThirtySeconds
    let result = try await product(IDs.monthly).purchase()
    guard case .success(let first) = result else { return XCTFail("\(result)") }
    await first.unsafePayloadValue.finish()
    var updates = Transaction.updates.makeAsyncIterator()
    try session.advance(by: 31)
    let next = await updates.next()
    let renewal = try XCTUnwrap(next).unsafePayloadValue
    XCTAssertEqual(renewal.reason, .renewal)
    XCTAssertEqual(renewal.originalID, first.unsafePayloadValue.id)
    XCTAssertGreaterThan(renewal.expirationDate ?? .distantPast, first.unsafePayloadValue.expirationDate ?? .distantFuture)
    let subscription = try await product(IDs.monthly).subscription
    let statuses = try await XCTUnwrap(subscription).status
    XCTAssertEqual(statuses.map(\.state), [.subscribed])
    XCTAssertEqual(statuses.first?.renewalInfo.unsafePayloadValue.willAutoRenew, true)
  }

  func testRefundArrivesInUpdatesAndEndsTheEntitlement() async throws {
    guard case .success(let bought) = try await product(IDs.shopping).purchase() else { return XCTFail() }
    await bought.unsafePayloadValue.finish()
    var updates = Transaction.updates.makeAsyncIterator()
    try session.refundTransaction(identifier: UInt(bought.unsafePayloadValue.id))
    let next = await updates.next()
    let refund = try XCTUnwrap(next).unsafePayloadValue
    XCTAssertEqual(refund.id, bought.unsafePayloadValue.id)
    XCTAssertNotNil(refund.revocationDate)
    XCTAssertEqual(refund.revocationReason, .other)
    let observed5 = await collect(Transaction.currentEntitlements).count
    XCTAssertEqual(observed5, 0)
  }

  func testExpireAndForceRenewal() async throws {
    guard case .success(let bought) = try await product(IDs.monthly).purchase() else { return XCTFail() }
    await bought.unsafePayloadValue.finish()
    try session.expireSubscription(productIdentifier: IDs.monthly)
    var statuses = try await Product.SubscriptionInfo.status(for: try XCTUnwrap(bought.unsafePayloadValue.subscriptionGroupID))
    XCTAssertEqual(statuses.map(\.state), [.expired])
    var updates = Transaction.updates.makeAsyncIterator()
    try session.forceRenewalOfSubscription(productIdentifier: IDs.monthly)
    let observed6 = await updates.next()?.unsafePayloadValue.reason
    XCTAssertEqual(observed6, .renewal)
    statuses = try await Product.SubscriptionInfo.status(for: try XCTUnwrap(bought.unsafePayloadValue.subscriptionGroupID))
    XCTAssertEqual(statuses.map(\.state), [.subscribed])
  }

  func testAutoRenewOffShowsInRenewalInfo() async throws {
    guard case .success(let bought) = try await product(IDs.monthly).purchase() else { return XCTFail() }
    try session.disableAutoRenewForTransaction(identifier: UInt(bought.unsafePayloadValue.id))
    let group = try XCTUnwrap(bought.unsafePayloadValue.subscriptionGroupID)
    let observed7 = try await Product.SubscriptionInfo.status(for: group).first?.renewalInfo.unsafePayloadValue.willAutoRenew
    XCTAssertEqual(observed7, false)
    XCTAssertEqual(session.allTransactions().last?.autoRenewingEnabled, false)
    try session.enableAutoRenewForTransaction(identifier: UInt(bought.unsafePayloadValue.id))
    let observed8 = try await Product.SubscriptionInfo.status(for: group).first?.renewalInfo.unsafePayloadValue.willAutoRenew
    XCTAssertEqual(observed8, true)
  }

  func testSyncAndItsSimulatedError() async throws {
    try await AppStore.sync()
    try await session.setSimulatedError(.generic(.networkError(URLError(.timedOut))), forAPI: .appStoreSync)
    do {
      try await AppStore.sync()
      XCTFail("sync succeeded")
    } catch StoreKitError.networkError {
    }
  }

  func testSubscriptionStatusSimulatedError() async throws {
    try await session.setSimulatedError(.generic(.unknown), forAPI: .subscriptionStatus)
    do {
      _ = try await Product.SubscriptionInfo.status(for: "anything")
      XCTFail("status returned")
    } catch StoreKitError.unknown {
    }
  }

  func testStorefrontCurrentAndUpdates() async throws {
    let observed9 = await Storefront.current?.countryCode
    XCTAssertEqual(observed9, "USA")
    var updates = Storefront.updates.makeAsyncIterator()
    session.storefront = "FRA"
    let changed = await updates.next()
    XCTAssertEqual(changed?.countryCode, "FRA")
    XCTAssertEqual(changed?.currency?.identifier, "EUR")
    let observed10 = await Storefront.current?.countryCode
    XCTAssertEqual(observed10, "FRA")
  }

  func testBuyProductOutsideTheAppGoesToUpdatesNotToPurchase() async throws {
    var updates = Transaction.updates.makeAsyncIterator()
    let made = try await session.buyProduct(identifier: IDs.coins100)
    let observed11 = await updates.next()?.unsafePayloadValue.id
    XCTAssertEqual(observed11, made.id)
  }

  func testInterruptedPurchaseIsPendingAndItsResolutionArrivesInUpdates() async throws {
    session.interruptedPurchasesEnabled = true
    guard case .pending = try await product(IDs.shopping).purchase() else { return XCTFail("not pending") }
    session.interruptedPurchasesEnabled = false
    let interrupted = try XCTUnwrap(session.allTransactions().last)
    XCTAssertTrue(interrupted.hasPurchaseIssue)
    var updates = Transaction.updates.makeAsyncIterator()
    try session.resolveIssueForTransaction(identifier: interrupted.identifier)
    let observed12 = await updates.next()?.unsafePayloadValue.productID
    XCTAssertEqual(observed12, IDs.shopping)
  }

  // MARK: Helpers

  func product(_ id: String) async throws -> Product {
    let products = try await Product.products(for: [id])
    return try XCTUnwrap(products.first)
  }

  func collect(_ sequence: Transaction.Transactions) async -> [VerificationResult<Transaction>] {
    var all: [VerificationResult<Transaction>] = []
    for await element in sequence { all.append(element) }
    return all
  }

  /// Waits (bounded, by yielding) until `condition` holds.
  func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    for _ in 0..<10_000 where !condition() { await Task.yield() }
    XCTAssertTrue(condition(), "condition never held")
  }
}
