import AppStoreServerAPI
import Foundation
import StoreEngine
import XCTest

/// A ledger whose every read fails with `error` (unit tests only).
private final class FailingLedger: LedgerStore {
  let error: LedgerError
  init(_ error: LedgerError) { self.error = error }
  func load() throws(LedgerError) -> LedgerSnapshot { throw error }
  func commit(_ changes: [LedgerChange]) throws(LedgerError) { throw error }
  func reserveTransactionIDs(count: UInt64, atLeast floor: UInt64) throws(LedgerError) -> UInt64 { throw error }
  func history(account: String) throws(LedgerError) -> [PaymentTransaction] { throw error }
  func allTransactions() throws(LedgerError) -> [PaymentTransaction] { throw error }
  func transactions(_ ids: [PaymentTransaction.ID]) throws(LedgerError) -> [PaymentTransaction] { throw error }
  func massExtension(productID: Product.ID, requestID: String) throws(LedgerError) -> MassExtension? { throw error }
}

final class LedgerFailureTests: XCTestCase {
  private func get(_ error: LedgerError, _ path: String, _ query: [(name: String, value: String)] = []) -> APIResponse {
    AppStoreServerAPI(ledger: FailingLedger(error), environment: .sandbox, bundleID: "b", now: { Date(timeIntervalSince1970: 0) })
      .handle(APIRequest(method: "GET", path: path, query: query))
  }

  func testALockedLedgerIsARetryableError() {
    assertAPIError(get(.busy(path: "ledger.sqlite"), "/inApps/v1/transactions/1"), 5_000_001)
    assertAPIError(get(.busy(path: "ledger.sqlite"), "/inApps/v2/history/1"), 5_000_001)
  }

  func testADamagedLedgerIsAnInternalError() {
    assertAPIError(get(.corrupt(path: "ledger.sqlite", reason: "bad page"), "/inApps/v1/subscriptions/1"), 5_000_000)
  }

  func testRequestsAreCheckedBeforeTheLedgerIsRead() {
    assertAPIError(get(.busy(path: "ledger.sqlite"), "/inApps/v1/transactions/x"), 4_000_006)
    assertAPIError(get(.busy(path: "ledger.sqlite"), "/inApps/v2/history/1", [("sort", "UP")]), 4_000_021)
  }
}
