import Foundation
import ServerNotifications
import StoreEngine
import StoreScenario

/// The storefront's side of a cancel flow: reads the data directory's Retention Messaging
/// configuration, calls the realtime URL of the signing environment (if one is set) with Apple's
/// signed request, and decides the sheet (``RetentionDecision``).
final class RetentionFlowClient {
  private let file: RetentionMessagingFile
  private let environment: String
  private let client: RetentionRealtimeClient
  private let catalog: () -> Catalog
  private let now: () -> Date

  init(
    directory: URL, signer: any TransactionSigner, appAppleID: Int64 = DeliveryConfiguration.defaultAppAppleID,
    timeout: Duration = RetentionRealtimeClient.defaultTimeout, catalog: @escaping () -> Catalog, now: @escaping () -> Date = Date.init
  ) {
    file = RetentionMessagingFile(directory: directory)
    environment = signer.environment
    client = RetentionRealtimeClient(signer: signer, appAppleID: appAppleID, timeout: timeout)
    self.catalog = catalog
    self.now = now
  }

  func run(_ request: RetentionFlowRequest) -> RetentionFlowResult {
    let configuration = file.read()
    guard let url = configuration.realtimeURLs[environment] else {
      return RetentionFlowResult(
        decision: RetentionDecision.decide(
          answer: nil, configuration: configuration, catalog: catalog(), productID: request.productID, locale: request.locale))
    }
    let outcome = client.call(
      RetentionRealtimeClient.Request(
        originalTransactionID: request.originalTransactionID, productID: request.productID.rawValue, userLocale: request.locale,
        requestIdentifier: UUID(), signedDate: now()),
      url: url)
    let decision = RetentionDecision.decide(
      answer: outcome.answer, configuration: configuration, catalog: catalog(), productID: request.productID, locale: request.locale)
    let described: String
    switch outcome.answer {
    case .answered(let status, _): described = "HTTP \(status)"
    case .failed(let name): described = name
    }
    return RetentionFlowResult(decision: decision, url: url, outcome: described, milliseconds: outcome.milliseconds)
  }
}
