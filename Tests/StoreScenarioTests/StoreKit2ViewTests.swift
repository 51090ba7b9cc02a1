import Foundation
import StoreEngine
import StorefrontTestSupport
import Testing

@testable import StoreScenario

/// The StoreKit 2 projection as a pure function: engine events in, StoreKit 2 records out (B69),
/// with StoreKit 2's rule that `purchase()` gets the app's own purchases and `Transaction.updates`
/// everything else, and the StoreKit 2 error names (B6).
@Suite struct StoreKit2ViewTests {
  typealias F = FixtureCatalog
  static let start = TestStore.start
  static let signed = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9." + Data(repeating: 1, count: 64).base64URLEncoded
  static let broken = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9." + Data(repeating: 0, count: 64).base64URLEncoded

  static func transaction(
    _ id: UInt64, _ state: TransactionState, product: Product.ID = F.removeAds, kind: ProductKind = .nonConsumable,
    error: StoreKitError? = nil, original: UInt64? = nil
  ) -> PaymentTransaction {
    var transaction = PaymentTransaction(
      id: PaymentTransaction.ID(id), originalID: original.map { PaymentTransaction.ID($0) }, account: "jake", productID: product,
      productKind: kind, state: state, purchaseDate: start)
    transaction.error = error
    if state == .purchased || state == .restored { transaction.signedTransaction = signed }
    return transaction
  }

  /// The StoreKit 2 records of `events`, after the app issued `commands`.
  static func project(
    _ events: [StoreEvent], after commands: [StoreCommand] = [], view: inout StoreKit2View,
    lookup: (PaymentTransaction.ID) -> PaymentTransaction? = { _ in nil }
  ) -> [EventRecord] {
    for command in commands { view.willPerform(command) }
    return events.flatMap { view.records(for: $0, lookup: lookup) }
  }

  static func project(_ events: [StoreEvent], after commands: [StoreCommand] = []) -> [EventRecord] {
    var view = StoreKit2View()
    return project(events, after: commands, view: &view)
  }

  static let buyRemoveAds = StoreCommand.buy(Payment(productID: F.removeAds))

  @Test func b69PurchaseReturnsTheAppsOwnPurchaseNotUpdates() {
    let records = Self.project(
      [.transactionsUpdated([Self.transaction(1, .purchasing)]), .transactionsUpdated([Self.transaction(1, .purchased)])],
      after: [Self.buyRemoveAds])
    #expect(records.map(\.name) == ["purchaseResult"])
    guard case .storeKit2(.purchaseResult(let result)) = records.first else { return }
    #expect(result.result == "success")
    #expect(result.transaction?.verification == "verified")
    #expect(result.transaction?.transactionID == "1")
  }

  @Test func b69BrokenSignatureIsUnverified() {
    var purchased = Self.transaction(1, .purchased)
    purchased.signedTransaction = Self.broken
    let records = Self.project(
      [.transactionsUpdated([Self.transaction(1, .purchasing)]), .transactionsUpdated([purchased])], after: [Self.buyRemoveAds])
    guard case .storeKit2(.purchaseResult(let result)) = records.first else {
      Issue.record("no purchase result: \(records)")
      return
    }
    #expect(result.transaction?.verification == "unverified")
  }

  @Test func b69DeferredIsPendingAndTheApprovalGoesToUpdates() {
    var view = StoreKit2View()
    let asked = Self.project(
      [.transactionsUpdated([Self.transaction(1, .purchasing)]), .transactionsUpdated([Self.transaction(1, .deferred)])],
      after: [Self.buyRemoveAds], view: &view)
    #expect(asked == [.storeKit2(.purchaseResult(.init(result: "pending", productID: F.removeAds.rawValue)))])
    let approved = Self.project([.transactionsUpdated([Self.transaction(1, .purchased)])], view: &view)
    #expect(approved.map(\.name) == ["transactionUpdate"])
  }

  @Test func b69AnApprovalIsNeverTakenForAWaitingPurchaseOfTheSameProduct() {
    var view = StoreKit2View()
    _ = Self.project(
      [.transactionsUpdated([Self.transaction(1, .purchasing)]), .transactionsUpdated([Self.transaction(1, .deferred)])],
      after: [Self.buyRemoveAds], view: &view)
    view.willPerform(Self.buyRemoveAds)  // a second request the store consolidates: no transaction of its own
    let approved = Self.project([.transactionsUpdated([Self.transaction(1, .purchased)])], view: &view)
    #expect(approved.map(\.name) == ["transactionUpdate"])
  }

  @Test func b69DeclinedAskToBuyShowsNothing() {
    var view = StoreKit2View()
    _ = Self.project(
      [.transactionsUpdated([Self.transaction(1, .purchasing)]), .transactionsUpdated([Self.transaction(1, .deferred)])],
      after: [Self.buyRemoveAds], view: &view)
    let declined = Self.project([.transactionsUpdated([Self.transaction(1, .failed, error: .paymentCancelled)])], view: &view)
    #expect(declined.isEmpty)
  }

  @Test func b69InterruptedPurchaseIsPendingAndItsResolutionGoesToUpdates() {
    var view = StoreKit2View()
    var interrupted = Self.transaction(1, .failed, error: .unknown)
    interrupted.needsResolution = true
    let first = Self.project(
      [.transactionsUpdated([Self.transaction(1, .purchasing)]), .transactionsUpdated([interrupted])],
      after: [Self.buyRemoveAds], view: &view)
    #expect(first.map(\.name) == ["purchaseResult"])
    #expect(first == [.storeKit2(.purchaseResult(.init(result: "pending", productID: F.removeAds.rawValue)))])
    let resolved = Self.project([.transactionsUpdated([Self.transaction(2, .purchased)])], view: &view)
    #expect(resolved.map(\.name) == ["transactionUpdate"])
  }

  @Test func b69CancelIsUserCancelledAndASimulatedUserCancelledIsThrown() {
    let cancelled = Self.project([.transactionsUpdated([Self.transaction(1, .failed, error: .paymentCancelled)])], after: [Self.buyRemoveAds])
    #expect(cancelled == [.storeKit2(.purchaseResult(.init(result: "userCancelled", productID: F.removeAds.rawValue)))])
    let simulated = StoreKitError(parsing: "userCancelled")
    let thrown = Self.project([.transactionsUpdated([Self.transaction(1, .failed, error: simulated)])], after: [Self.buyRemoveAds])
    guard case .storeKit2(.purchaseError(let fields)) = thrown.first else {
      Issue.record("not thrown: \(thrown)")
      return
    }
    #expect(fields.error == StoreKit2Record.ErrorName(StoreKitError(code: 2, storeKit2Name: "userCancelled")))
    #expect(fields.error.text == "StoreKitError.userCancelled")
  }

  @Test(arguments: [
    ("networkError", "StoreKitError.networkError"), ("notEntitled", "StoreKitError.notEntitled"),
    ("invalidQuantity", "Product.PurchaseError.invalidQuantity"), ("ineligibleForOffer", "Product.PurchaseError.ineligibleForOffer"),
    ("paymentNotAllowed", "Product.PurchaseError.purchaseNotAllowed"), ("cloudServiceNetworkConnectionFailed", "StoreKitError.networkError"),
    ("server", "StoreKitError.unknown"), ("overlayTimeout", "StoreKitError.unknown"),
  ])
  func b6ThrownErrorsCarryTheirStoreKit2Names(simulated: String, shown: String) throws {
    let error = try #require(StoreKitError(parsing: simulated))
    let records = Self.project([.transactionsUpdated([Self.transaction(1, .failed, error: error)])], after: [Self.buyRemoveAds])
    guard case .storeKit2(.purchaseError(let fields)) = records.first else {
      Issue.record("not thrown: \(records)")
      return
    }
    #expect(fields.error.text == shown)
  }

  @Test func b69RenewalsRefundsAndUpgradesGoToUpdates() {
    var renewal = Self.transaction(3, .purchased, product: F.monthly, kind: .autoRenewableSubscription, original: 1)
    renewal.reason = .renewal
    var refunded = Self.transaction(1, .purchased)
    refunded.revocationDate = Self.start
    var upgraded = Self.transaction(4, .purchased, product: F.monthly, kind: .autoRenewableSubscription)
    upgraded.isUpgraded = true
    upgraded.isFinished = true
    var finishedElsewhere = Self.transaction(5, .purchased)
    finishedElsewhere.isFinished = true
    let records = Self.project([
      .transactionsUpdated([renewal]), .transactionRevoked(refunded), .transactionsAmended([upgraded, finishedElsewhere]),
    ])
    #expect(records.map(\.name) == ["transactionUpdate", "transactionUpdate", "transactionUpdate"])
    guard case .storeKit2(.transactionUpdate(let update)) = records.last else { return }
    #expect(update.isUpgraded == true)
  }

  @Test func b69RestoreIsASyncWithoutRestoredTransactionsAndFinishHasNoCallback() {
    let records = Self.project([
      .transactionsUpdated([Self.transaction(9, .restored, original: 1)]), .restoreFinished(restoredCount: 1),
      .transactionsRemoved([Self.transaction(9, .restored, original: 1)]), .restoreFailed(StoreKitError(parsing: "networkError") ?? .unknown),
    ])
    #expect(records.map(\.name) == ["appStoreSync", "appStoreSync"])
    #expect(records.last == .storeKit2(.appStoreSync(.init(error: .init(StoreKitError(code: 7, storeKit2Name: "networkError"))))))
  }

  @Test func b69UnfinishedPurchasesAtLaunchGoToUpdatesAndARelaunchEndsWaitingCalls() {
    var view = StoreKit2View()
    _ = Self.project([.transactionsUpdated([Self.transaction(1, .purchasing)])], after: [Self.buyRemoveAds], view: &view)
    let relaunched = Self.project(
      [.transactionsUpdated([Self.transaction(1, .purchasing), Self.transaction(2, .purchased, product: F.coins, kind: .consumable)])],
      after: [.relaunch], view: &view)
    #expect(relaunched.map(\.name) == ["transactionUpdate"])
    let confirmedLater = Self.project([.transactionsUpdated([Self.transaction(1, .purchased)])], view: &view)
    #expect(confirmedLater.map(\.name) == ["transactionUpdate"])
  }

  @Test func b69ReBuyingAnOwnedNonConsumableReturnsTheExistingTransaction() {
    var view = StoreKit2View()
    let original = Self.transaction(1, .purchased)
    let records = Self.project(
      [.transactionsUpdated([Self.transaction(5, .purchasing, original: 1)]), .transactionsUpdated([Self.transaction(5, .purchased, original: 1)])],
      after: [Self.buyRemoveAds], view: &view, lookup: { $0 == original.id ? original : nil })
    guard case .storeKit2(.purchaseResult(let result)) = records.first else {
      Issue.record("no result: \(records)")
      return
    }
    #expect(result.transaction?.transactionID == "1")
  }

  @Test func b69OtherEventsKeepTheirStoreKit1LinesAndTheSK2NamesRoundTrip() throws {
    let prompt = PurchasePrompt.signIn(purpose: .restore)
    let passthrough: [StoreEvent] = [.promptPresented(prompt), .promptDismissed, .accountChanged("jake"), .historyCleared(account: "jake")]
    for event in passthrough {
      #expect(Self.project([event]) == EventRecord.records(for: event))
    }
    let renamed = Self.project([
      .shouldAddStorePayment(F.removeAds), .productsResponse(request: 1, products: [F.coins], invalidIdentifiers: ["x"]),
      .productsRequestFailed(request: 2, error: .unknown),
    ])
    #expect(renamed.map(\.name) == ["purchaseIntent", "products", "productsError"])
    for record in renamed + Self.project([.transactionsUpdated([Self.transaction(1, .purchased)])], after: [Self.buyRemoveAds]) {
      let line = EventLine.json(EventLine(record: record, time: "2026-01-01T00:00:00Z", line: 1))
      #expect(try JSONDecoder().decode(EventLine.self, from: Data(line.utf8)).record == record, "\(line)")
    }
  }
}
