import AppReceipt
import AppStoreServerAPI
import Foundation
import PostgreSQLLedger
import SQLiteLedger
import ServerNotifications
import StoreEngine
import StoreServer

/// The endpoints `storefront serve` answers with: the one place the App Store Server API module is wired in.
enum ServeEndpoints {
  /// - Parameters:
  ///   - store: The data directory's store (its own ledger connection and payment queue), read afresh
  ///     by every request; the endpoints that change the ledger (extensions, consumption, the app
  ///     account token) run as engine commands on its queue, after taking in what other processes
  ///     committed.
  ///   - environment: `Sandbox` or `Production`, the store the answers come from.
  ///
  /// The server runs a thread per connection and a ledger connection is not shared between threads,
  /// so requests take turns at the API; a ledger locked by a writer delays the answer (SQLite's busy
  /// timeout), and one locked for longer answers Apple's retryable 5000001.
  static func make(
    store: LiveStore, retention: RetentionMessagingStore, environment: String, bundleID: String,
    appAppleID: Int64 = DeliveryConfiguration.defaultAppAppleID
  ) -> APIGateway.Endpoints {
    let queue = store.queue
    let api = AppStoreServerAPI(
      ledger: store.ledger, environment: environment == "Production" ? .production : .sandbox, bundleID: bundleID,
      now: { Date() }, signer: store.authority.signer(environment: environment),
      perform: { command throws(EngineError) in
        try queue.refresh()
        return try queue.perform(command)
      },
      faultFile: FaultPlanFile(directory: store.directory),
      virtualClock: {
        // The clock another process advanced; a failed refresh keeps the one last taken in.
        _ = try? queue.refresh()
        return queue.now
      })
    api.retentionMessaging = retentionMessaging(store: store, retention: retention, environment: environment, appAppleID: appAppleID)
    // The lock owns the API: the only way to it is a turn.
    let turn = Locked(api)
    return { request in turn.withLock { $0.handle(request) } }
  }
}

extension ServeEndpoints {
  /// The Retention Messaging API's configuration (in the ledger, `retention`) and performance tests:
  /// the test signs with the data directory's App Store chain and calls the endpoint over libcurl,
  /// on threads of its own.
  static func retentionMessaging(
    store: LiveStore, retention: RetentionMessagingStore, environment: String, appAppleID: Int64
  ) -> RetentionMessagingService {
    let signer = store.authority.signer(environment: environment)
    let config = RetentionMessagingService.config
    let limits = RetentionPerformanceTest.Limits(
      totalRequests: config.totalRequests, maxConcurrentRequests: config.maxConcurrentRequests,
      responseTimeThreshold: .milliseconds(config.responseTimeThreshold), successRateThreshold: config.successRateThreshold)
    return RetentionMessagingService(store: retention) { run in
      RetentionPerformanceTest.start(
        RetentionPerformanceTest.Target(
          requestID: run.requestID, url: run.target, originalTransactionID: run.originalTransactionID, productID: run.productID),
        limits: limits, signer: signer, appAppleID: appAppleID, store: retention)
    }
  }

  /// `POST /verifyReceipt` (no bearer token, as Apple's): its own read-only ledger connection, the
  /// shared secret and the fault plan read per request, so `keys shared-secret --rotate` and
  /// `server-fault verifyReceipt …` apply to the next request. Requests take turns at the connection
  /// only (the service's lock); receipts are verified and answers encoded in parallel.
  static func verifyReceipt(store: LiveStore, environment: String, bundleID: String) throws(LedgerError) -> VerifyReceiptHandler {
    let ledger = try store.location.open(readOnly: true)
    let secret = SharedSecretStore(directory: store.directory, storage: store.secrets)
    let faults = FaultPlanFile(directory: store.directory)
    let service = VerifyReceiptService(
      ledger: ledger, authority: store.authority, bundleID: bundleID, environment: environment,
      sharedSecret: { secret.read() }, fault: { faults.takeReceiptStatus() },
      clock: { ((try? ledger.virtualClock()) ?? nil) ?? Date() }, changeToken: { ledger.changeToken() })
    return VerifyReceiptHandler { request in
      HTTPReply(APIResponse(status: 200, body: service.answer(method: request.method, body: request.body)))
    }
  }
}

/// Answers `/verifyReceipt` requests (``ServeEndpoints/verifyReceipt(store:environment:bundleID:)``).
struct VerifyReceiptHandler: Sendable {
  /// The path Apple's verifyReceipt hosts (`buy.itunes.apple.com`, `sandbox.itunes.apple.com`) answer at.
  static let path = "/verifyReceipt"
  let answer: @Sendable (HTTPRequest) -> HTTPReply
}
