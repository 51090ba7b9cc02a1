import Foundation
import ServerNotifications
import StoreEngine
import StoreScenario

/// The storefront's side of a cancel flow: reads Retention Messaging's configuration from the
/// ledger (what any `storefront serve` on the same ledger stored), calls the realtime URL of the signing environment (if one is set) with Apple's
/// signed request, and decides the sheet (``RetentionDecision``).
///
/// One libcurl handle: the TUI uses it from one serial queue, `storefront run` from its thread.
final class RetentionFlowClient: @unchecked Sendable {
  private let store: RetentionMessagingStore
  private let environment: String
  private let client: RetentionRealtimeClient
  private let now: @Sendable () -> Date

  init(
    store: RetentionMessagingStore, signer: any TransactionSigner, appAppleID: Int64 = DeliveryConfiguration.defaultAppAppleID,
    timeout: Duration = RetentionRealtimeClient.defaultTimeout, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.store = store
    environment = signer.environment
    client = RetentionRealtimeClient(signer: signer, appAppleID: appAppleID, timeout: timeout)
    self.now = now
  }

  /// Calls the endpoint (if one is set) and decides the sheet against `catalog`.
  func run(_ request: RetentionFlowRequest, catalog: Catalog) -> RetentionFlowResult {
    let configuration = store.read()
    guard let url = configuration.realtimeURLs[environment] else {
      return RetentionFlowResult(
        decision: RetentionDecision.decide(
          answer: nil, configuration: configuration, catalog: catalog, productID: request.productID, locale: request.locale))
    }
    let outcome = client.call(
      RetentionRealtimeClient.Request(
        originalTransactionID: request.originalTransactionID, productID: request.productID.rawValue, userLocale: request.locale,
        requestIdentifier: UUID(), signedDate: now()),
      url: url)
    let decision = RetentionDecision.decide(
      answer: outcome.answer, configuration: configuration, catalog: catalog, productID: request.productID, locale: request.locale)
    let described: String
    switch outcome.answer {
    case .answered(let status, _): described = "HTTP \(status)"
    case .failed(let name): described = name
    }
    return RetentionFlowResult(decision: decision, url: url, outcome: described, milliseconds: outcome.milliseconds)
  }
}
