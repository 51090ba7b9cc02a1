import StoreEngine
import XCTest

@testable import PostgreSQLLedger

/// The shared ``LedgerStoreConformance`` suite against ``PostgreSQLLedgerStore`` on a real server,
/// a new database per store.
///
/// A failure partway through a batch is a real PostgreSQL error: a trigger, installed from a second
/// connection, raises an exception on the insert of one transaction id.
final class PostgreSQLLedgerConformanceTests: XCTestCase {
  private lazy var suite = LedgerStoreConformance(
    harness: LedgerStoreHarness(
      makeStore: { try PostgreSQLLedgerStore(try PostgreSQLTestDatabase.make(label: "conformance")) },
      injectFailure: { store, id in
        let postgres = try XCTUnwrap(store as? PostgreSQLLedgerStore)
        let other = try PostgreSQLConnection(postgres.connection.address)
        try other.executeScript(
          """
          CREATE FUNCTION inject_failure() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'injected failure'; END $$;
          CREATE TRIGGER inject_failure BEFORE INSERT ON transactions FOR EACH ROW
            WHEN (NEW.id = \(Int64(bitPattern: id.rawValue))) EXECUTE FUNCTION inject_failure();
          """)
        other.close()
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
  func testPresentReadsFollowTheDefaults() throws { try suite.presentReadsFollowTheDefaults() }
  func testTransactionCountFollowsTheRowsAccount() throws { try suite.transactionCountFollowsTheRowsAccount() }
  func testBackwardAndRevokedPagesFollowTheReference() throws { try suite.backwardAndRevokedPagesFollowTheReference() }
  func testRevokedPageEdges() throws { try suite.revokedPageEdges() }
  func testSubscriptionsOfOneAccount() throws { try suite.subscriptionsOfOneAccount() }
}
