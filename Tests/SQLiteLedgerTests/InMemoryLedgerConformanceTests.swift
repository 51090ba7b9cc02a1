import StoreEngine
import XCTest

/// The shared ``LedgerStoreConformance`` suite against the engine's ``InMemoryLedgerStore``.
final class InMemoryLedgerConformanceTests: XCTestCase {
  private let suite = LedgerStoreConformance(
    harness: LedgerStoreHarness(
      makeStore: { InMemoryLedgerStore() },
      injectFailure: { store, _ in
        let memory = try XCTUnwrap(store as? InMemoryLedgerStore)
        memory.failNextCommit = .writeFailed(path: "memory", reason: "injected failure")
      }))

  func testEmptyStoreLoadsNothing() throws { try suite.emptyStoreLoadsNothing() }
  func testTransactionsKeepFirstInsertionOrderAcrossUpserts() throws {
    try suite.transactionsKeepFirstInsertionOrderAcrossUpserts()
  }
  func testUpsertReplacesTheWholeValue() throws { try suite.upsertReplacesTheWholeValue() }
  func testAFinishReadsBackFinishedOnEveryPath() throws { try suite.aFinishReadsBackFinishedOnEveryPath() }
  func testDeviceValuesRoundTrip() throws { try suite.deviceValuesRoundTrip() }
  func testACommittedSubscriptionRoundTrips() throws { try suite.aCommittedSubscriptionRoundTrips() }
  func testReplayingABatchChangesNothing() throws { try suite.replayingABatchChangesNothing() }
  func testClearHistoryRemovesOnlyThatAccount() throws {
    try suite.clearHistoryRemovesOnlyThatAccount()
  }
  func testChangesApplyInBatchOrder() throws { try suite.changesApplyInBatchOrder() }
  func testValuesAreOverwrittenByKey() throws { try suite.valuesAreOverwrittenByKey() }
  func testLoadReadsTheWorkingSetOnly() throws { try suite.loadReadsTheWorkingSetOnly() }
  func testAccountsAreUpsertedByNameInOrderOfLatestPut() throws {
    try suite.accountsAreUpsertedByNameInOrderOfLatestPut()
  }
  func testExtremeIdentifiersAndEveryFieldRoundTrip() throws {
    try suite.extremeIdentifiersAndEveryFieldRoundTrip()
  }
  func testFailedBatchLeavesNothing() throws { try suite.failedBatchLeavesNothing() }
  func testB15AskToBuyRequestsAreStoredAndLoadedWhileOpen() throws { try suite.askToBuyRequestsAreStoredAndLoadedWhileOpen() }
  func testMassExtensionsAreKeptByProductAndRequest() throws { try suite.massExtensionsAreKeptByProductAndRequest() }
  func testB71DeletingATransactionRemovesOnlyIt() throws { try suite.deletingATransactionRemovesOnlyIt() }
  func testOwnerExpectationGuardsTheWholeBatch() throws { try suite.ownerExpectationGuardsTheWholeBatch() }
  func testDeviceValueExpectationGuardsTheWholeBatch() throws { try suite.deviceValueExpectationGuardsTheWholeBatch() }
  func testHistoryPagesFollowTheReference() throws { try suite.historyPagesFollowTheReference() }
  func testHistoryPageEdges() throws { try suite.historyPageEdges() }
  func testBackwardAndRevokedPagesFollowTheReference() throws { try suite.backwardAndRevokedPagesFollowTheReference() }
  func testRevokedPageEdges() throws { try suite.revokedPageEdges() }
  func testSubscriptionsOfOneAccount() throws { try suite.subscriptionsOfOneAccount() }
}
