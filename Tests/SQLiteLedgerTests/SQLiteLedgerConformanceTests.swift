import StoreEngine
import XCTest

@testable import SQLiteLedger

/// The shared ``LedgerStoreConformance`` suite against ``SQLiteLedgerStore``.
///
/// A failure partway through a batch is a real SQLite error: a trigger, installed from a second
/// connection, aborts the insert of one transaction id with `RAISE(ABORT)`.
final class SQLiteLedgerConformanceTests: XCTestCase {
  private var directories: [TemporaryDirectory] = []

  private lazy var suite = LedgerStoreConformance(
    harness: LedgerStoreHarness(
      makeStore: { [unowned self] in
        let directory = try TemporaryDirectory()
        directories.append(directory)
        return try SQLiteLedgerStore(directory: directory.url)
      },
      injectFailure: { store, id in
        let sqlite = try XCTUnwrap(store as? SQLiteLedgerStore)
        let other = try SQLiteConnection(path: sqlite.path)
        try other.execute(
          """
          CREATE TRIGGER inject_failure BEFORE INSERT ON transactions WHEN NEW.id = \(Int64(bitPattern: id.rawValue))
          BEGIN SELECT RAISE(ABORT, 'injected failure'); END
          """)
        other.close()
      }))

  override func tearDown() {
    directories.removeAll()
    super.tearDown()
  }

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
  func testPresentReadsFollowTheDefaults() throws { try suite.presentReadsFollowTheDefaults() }
  func testTransactionCountFollowsTheRowsAccount() throws { try suite.transactionCountFollowsTheRowsAccount() }
  func testBackwardAndRevokedPagesFollowTheReference() throws { try suite.backwardAndRevokedPagesFollowTheReference() }
  func testRevokedPageEdges() throws { try suite.revokedPageEdges() }
  func testSubscriptionsOfOneAccount() throws { try suite.subscriptionsOfOneAccount() }
}
