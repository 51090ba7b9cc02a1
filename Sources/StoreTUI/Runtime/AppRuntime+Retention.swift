import Foundation
import StoreEngine
import StoreScenario

extension AppRuntime {
  /// Starts the cancel flow of subscription `id`: its original transaction and the device's locale
  /// go to the developer's realtime endpoint (``retentionFlow``); without one the plain sheet shows.
  func startRetentionFlow(_ id: PaymentTransaction.ID, product: Product.ID) throws -> String {
    guard pendingRetention == nil else { return "A cancel flow is already waiting for the developer's server." }
    guard let transaction = try queue.transaction(id) else { throw SettingError(message: "Transaction \(id) is not in the ledger.") }
    let request = RetentionFlowRequest(
      productID: product, originalTransactionID: transaction.originalID.description,
      locale: queue.controls.locale.replacingOccurrences(of: "_", with: "-"))
    guard let retentionFlow else {
      send(.retentionAnswered(id, product: product, RetentionFlowResult(decision: RetentionDecision(sheet: .plain))))
      return "Cancel \(product)?"
    }
    pendingRetention = (id, product)
    retentionFlow(request)
    return "Asking the developer's server what to show before cancelling…"
  }

  /// The realtime call of the waiting cancel flow ended (on the main thread): show its sheet.
  public func retentionFinished(_ result: RetentionFlowResult) {
    guard let pending = pendingRetention else { return }
    pendingRetention = nil
    send(.retentionAnswered(pending.id, product: pending.product, result))
  }
}
