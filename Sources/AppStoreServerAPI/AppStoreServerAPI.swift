import Foundation
import StoreEngine

/// The App Store Server API as request → response functions over the ledger: Apple's paths, models,
/// error codes and statuses, with no HTTP of its own (``StoreServer`` serves it).
///
/// Every request reads the ledger afresh, so what another process committed (a `storefront run` on the
/// same data directory) is in the next answer; the signed data it returns is the JWS the ledger stores,
/// byte for byte. A request reads what it answers, not the customer's history: a history page is read
/// from the ledger a page at a time (``StoreEngine/LedgerStore/historyPage(account:order:after:limit:)``),
/// and subscription statuses from the records and the transactions they name. Only rows signed for this server's environment and bundle id exist for it.
public final class AppStoreServerAPI {
  let reader: LedgerReader
  let environment: ServerEnvironment
  let bundleID: String
  let appAppleID: Int64?
  let now: @Sendable () -> Date
  let signer: (any TransactionSigner)?
  let perform: ((StoreCommand) throws(EngineError) -> StoreStep)?
  let makeToken: @Sendable () -> String
  let virtualClock: (() -> Date)?
  private let sleep: @Sendable (Duration) -> Void
  private let plan: Locked<FaultPlan>
  private let faultFile: FaultPlanFile?
  /// The Retention Messaging API's store and performance tests; without it those endpoints are not
  /// served (404).
  public var retentionMessaging: RetentionMessagingService?

  /// - Parameters:
  ///   - appAppleID: the app's Apple id for `appAppleId` (nil: left out, as in Apple's sandbox).
  ///   - signer: signs app transactions (Get App Transaction Info); without one that endpoint answers
  ///     `AppTransactionDoesNotExistError`.
  ///   - perform: runs an engine command on the ledger, for the endpoints that change it (Extend a
  ///     Subscription Renewal Date); a `PaymentQueue` on the same ledger, refreshed before each command.
  ///     Without one those endpoints are not served (404).
  ///   - faultFile: where other processes put faults for this server (`server-faults.json` of the
  ///     data directory); its faults come before `faults`.
  ///   - sleep: how a fault's delay waits (tests record it instead).
  ///   - makeToken: a new `testNotificationToken` for Request a Test Notification (Apple's are UUIDs).
  ///   - virtualClock: the store's virtual clock, which notifications are dated on (Get Notification
  ///     History's window is measured on it); without one, the ledger's stored clock, else `now`.
  public init(
    ledger: any LedgerStore, environment: ServerEnvironment, bundleID: String, now: @escaping @Sendable () -> Date,
    appAppleID: Int64? = nil, signer: (any TransactionSigner)? = nil,
    perform: ((StoreCommand) throws(EngineError) -> StoreStep)? = nil, faults: FaultPlan = FaultPlan(),
    faultFile: FaultPlanFile? = nil,
    makeToken: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() },
    virtualClock: (() -> Date)? = nil,
    sleep: @escaping @Sendable (Duration) -> Void = { Thread.sleep(forTimeInterval: Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
  ) {
    reader = LedgerReader(ledger: ledger, environment: environment, bundleID: bundleID)
    self.environment = environment
    self.bundleID = bundleID
    self.appAppleID = appAppleID
    self.now = now
    self.signer = signer
    self.perform = perform
    self.makeToken = makeToken
    self.virtualClock = virtualClock
    self.sleep = sleep
    plan = Locked(faults)
    self.faultFile = faultFile
  }

  /// The injected faults (sandbox controls); may be changed while requests are served.
  public var faults: FaultPlan {
    get { plan.withLock { $0 } }
    set { plan.withLock { $0 = newValue } }
  }

  /// Answers one authenticated request.
  public func handle(_ request: APIRequest) -> APIResponse {
    let endpoint: APIEndpoint
    let parameters: [String]
    switch APIRoute(method: request.method, path: request.path) {
    case .endpoint(let found, let values):
      endpoint = found
      parameters = values
    case .methodNotAllowed: return Self.methodNotAllowed
    case .notFound: return Self.notFound
    }
    // Look Up Order ID has no sandbox URL: to a sandbox server it is a path like any unknown one.
    if endpoint == .lookUpOrderID, environment == .sandbox { return Self.notFound }
    if Self.changesTheLedger.contains(endpoint), perform == nil { return Self.notFound }
    if Self.retentionMessagingEndpoints.contains(endpoint), retentionMessaging == nil { return Self.notFound }
    if let fault = faultFile?.take(for: endpoint) ?? plan.withLock({ $0.take(for: endpoint) }) {
      if let delay = fault.delay { sleep(delay) }
      if let answer = fault.answer { return answer.error.response }
    }
    let query = QueryParameters(pairs: request.query)
    do {
      return try respond(endpoint, parameters: parameters, query: query, body: request.body)
    } catch {
      return error.response
    }
  }

  private func respond(
    _ endpoint: APIEndpoint, parameters: [String], query: QueryParameters, body: Data
  ) throws(APIError) -> APIResponse {
    let parameter = parameters.first ?? ""
    return switch endpoint {
    case .getTransactionInfo: try transactionInfo(parameter)
    case .getAppTransactionInfo: try appTransactionInfo(parameter)
    case .getTransactionHistory: try transactionHistory(parameter, query: query, version2: true)
    case .getTransactionHistoryV1: try transactionHistory(parameter, query: query, version2: false)
    case .getAllSubscriptionStatuses: try subscriptionStatuses(parameter, query: query)
    case .getRefundHistory: try refundHistory(parameter, query: query)
    case .lookUpOrderID: try lookUpOrder(parameter)
    case .sendConsumptionInformation: try sendConsumptionInformation(parameter, body: body)
    case .extendSubscriptionRenewalDate: try extendRenewalDate(parameter, body: body)
    case .massExtendRenewalDate: try massExtendRenewalDate(body: body)
    case .getMassExtensionStatus: try massExtensionStatus(productID: parameter, requestID: parameters.last ?? "")
    case .setAppAccountToken: try setAppAccountToken(parameter, body: body)
    case .finishTransaction: try finishTransaction(parameter)
    case .getRefundHistoryV1: try refundHistoryV1(parameter)
    case .sendConsumptionInformationV1: try sendConsumptionInformationV1(parameter, body: body)
    case .requestTestNotification: try requestTestNotification()
    case .getTestNotificationStatus: try testNotificationStatus(parameter)
    case .getNotificationHistory: try notificationHistory(query: query, body: body)
    case .uploadImage, .deleteImage, .getImageList, .uploadMessage, .deleteMessage, .getMessageList,
      .configureDefaultMessage, .deleteDefaultMessage, .getDefaultMessage, .configureRealtimeURL, .deleteRealtimeURL,
      .getRealtimeURL, .initiatePerformanceTest, .getPerformanceTestResults:
      try retentionMessaging(endpoint, parameters: parameters, query: query, body: body)
    }
  }

  /// The endpoints that run engine commands: not served without a way to run them.
  static let changesTheLedger: Set<APIEndpoint> = [
    .extendSubscriptionRenewalDate, .massExtendRenewalDate, .setAppAccountToken, .finishTransaction,
  ]

  /// An unknown path: what an HTTP front end answers, not an API error (Apple documents none).
  static let notFound = APIResponse(status: 404, contentType: "text/plain", body: Data("Not Found\n".utf8))
  /// A known path with another method.
  static let methodNotAllowed = APIResponse(status: 405, contentType: "text/plain", body: Data("Method Not Allowed\n".utf8))
}
