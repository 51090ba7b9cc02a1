import Foundation
import StoreEngine

extension ScenarioRunner {
  /// The real store's glitches that stop a call before the store sees it (DECISIONS §46), as the
  /// StoreKit library reports them: products that fail to load (`productsError systemError`), a
  /// dropped `storekitd` connection (`purchase()` threw `systemError`, nothing bought), a sheet that
  /// never appears (no line: the call has not returned, nothing bought). Returns whether `command`
  /// was stopped, and so not performed.
  func glitched(_ command: StoreCommand, line: Int) -> Bool {
    storeKit2View.glitches = queue.controls
    guard !queue.controls.glitches.isEmpty else { return false }
    let systemError = StoreKitError(parsing: "systemError") ?? .unknown
    let records: [EventRecord]
    switch command {
    case .requestProducts:
      guard storeKit2View.draw(.productsFail) else { return false }
      records = [.storeKit2(.productsError(.init(productID: nil, error: .init(systemError))))]
    case .buy(let payment):
      if storeKit2View.draw(.daemonDrop) {
        records = [.storeKit2(.purchaseError(.init(productID: payment.productID.rawValue, error: .init(systemError))))]
      } else if storeKit2View.draw(.sheetNotShown) {
        records = []
      } else {
        return false
      }
    default:
      return false
    }
    noteStoreKit2(records)
    emit(records, line: line)
    return true
  }
}
