import Foundation
import SandboxSigning
import StoreEngine

/// `POST /verifyReceipt` over a ledger: decodes and authenticates the receipt, checks its
/// environment and the shared secret, and answers Apple's JSON, always with HTTP 200.
///
/// Requests may come from several threads at once: the ledger connection (and the clock, which
/// reads it) is used by one at a time under the service's lock; decoding, verifying and encoding
/// run in parallel.
public struct VerifyReceiptService: @unchecked Sendable {
  // @unchecked: the ledger reference, the clock and the cache are only touched under `cache.lock`.
  private let ledger: any LedgerStore
  private let builder: AppReceiptBuilder
  private let decoder: AppReceiptDecoder
  private let environment: String
  private let sharedSecret: @Sendable () -> String?
  private let fault: @Sendable () -> Int?
  private let clock: () -> Date
  private let wallClock: @Sendable () -> Date
  private let changeToken: () -> Int64?
  private let cache = HistoryCache()

  /// The last account read, while the ledger's change token stays the same.
  private final class HistoryCache {
    let lock = NSLock()
    var key: (account: String, token: Int64)?
    var history = ReceiptHistory()
    var records: [SubscriptionRecord] = []
  }

  /// - Parameters:
  ///   - environment: `Sandbox` or `Production`: the server this is (serve's `--environment`).
  ///   - sharedSecret: The app-specific shared secret on file now (read per request, so a rotation
  ///     applies at once); nil when none was made, and then any password is wrong.
  ///   - fault: A status in 21100–21199 the sandbox controls injected for this request, or nil.
  ///   - clock: The store's virtual clock: `request_date` and `latest_receipt`'s creation date.
  ///   - wallClock: When certificates are checked.
  ///   - changeToken: A value that changes whenever another connection commits (SQLite's
  ///     `PRAGMA data_version`); while it stays the same, the account's history is not read again.
  ///     Nil (the default) reads it every request.
  public init(
    ledger: any LedgerStore, authority: SandboxCertificateAuthority, bundleID: String, environment: String,
    sharedSecret: @escaping @Sendable () -> String?, fault: @escaping @Sendable () -> Int? = { nil },
    clock: @escaping () -> Date, wallClock: @escaping @Sendable () -> Date = Date.init,
    changeToken: @escaping () -> Int64? = { nil }
  ) {
    self.changeToken = changeToken
    self.ledger = ledger
    builder = AppReceiptBuilder(ledger: ledger, authority: authority, bundleID: bundleID, environment: environment, now: clock)
    decoder = AppReceiptDecoder(trustedRoots: [authority.root])
    self.environment = environment
    self.sharedSecret = sharedSecret
    self.fault = fault
    self.clock = clock
    self.wallClock = wallClock
  }

  /// The JSON body answering one request (the HTTP status is always 200).
  public func answer(method: String, body: Data) -> Data {
    response(method: method, body: body).data
  }

  /// The account's receipt history (read a page at a time) and subscription records, from the
  /// cache while the ledger is unchanged.
  private func read(account: String?) throws(LedgerError) -> (ReceiptHistory, [SubscriptionRecord], Date) {
    cache.lock.lock()
    defer { cache.lock.unlock() }
    let now = clock()
    guard let account else { return (ReceiptHistory(), [], now) }
    let token = changeToken()
    if let token, let key = cache.key, key.account == account, key.token == token { return (cache.history, cache.records, now) }
    let history = try ReceiptHistory.read(account: account, from: ledger)
    var records: [SubscriptionRecord] = []
    if history.hasAutoRenewable {
      records = try ledger.load().subscriptions.filter { $0.account == account }
    }
    cache.key = token.map { (account, $0) }
    cache.history = history
    cache.records = records
    return (history, records, now)
  }

  private static func status(_ code: Int) -> ReceiptJSON { .object(["status": .int(code)]) }

  /// The answer as JSON values.
  func response(method: String, body: Data) -> ReceiptJSON {
    guard method == "POST" else { return Self.status(VerifyReceiptStatus.notPost) }
    if let injected = fault(), VerifyReceiptStatus.retryableRange.contains(injected) {
      return .object(["is-retryable": .bool(true), "status": .int(injected)])
    }
    guard let request = VerifyReceiptRequest(body: body) else { return Self.status(VerifyReceiptStatus.malformedReceipt) }
    let contents: AppReceiptContents
    do throws(AppReceiptDecoder.Failure) {
      contents = try decoder.decode(base64: request.receiptData, at: wallClock())
    } catch {
      switch error {
      case .malformed: return Self.status(VerifyReceiptStatus.malformedReceipt)
      case .notAuthentic: return Self.status(VerifyReceiptStatus.notAuthentic)
      }
    }
    if contents.environment != environment {
      let status =
        contents.environment == "Sandbox"
        ? VerifyReceiptStatus.sandboxReceiptInProduction : VerifyReceiptStatus.productionReceiptInSandbox
      return Self.status(status)
    }
    let history: ReceiptHistory
    let records: [SubscriptionRecord]
    let now: Date
    do throws(LedgerError) {
      (history, records, now) = try read(account: contents.account)
    } catch {
      // Apple's "internal data access error; try again later".
      return Self.status(21009)
    }
    let subscribed = history.hasAutoRenewable
    if let password = request.password {
      guard password == sharedSecret() else { return Self.status(VerifyReceiptStatus.wrongSharedSecret) }
    } else if subscribed || contents.inAppPurchases.contains(where: { $0.webOrderLineItemID != nil }) {
      // Apple wants the shared secret for receipts with auto-renewable subscriptions.
      return Self.status(VerifyReceiptStatus.wrongSharedSecret)
    }
    let json = VerifyReceiptJSON()
    var answer: [String: ReceiptJSON] = [
      "status": .int(VerifyReceiptStatus.valid), "environment": .string(environment),
      "receipt": json.receipt(contents, requestDate: now),
    ]
    guard subscribed, let account = contents.account else { return .object(answer) }
    // Dated with the clock read under the lock: the builder's own clock would read the ledger.
    let latest = builder.contents(account: account, purchases: history.inAppPurchases, createdAt: now)
    if let signed = try? builder.sign(latest) { answer["latest_receipt"] = .string(signed.base64EncodedString()) }
    answer["latest_receipt_info"] = .array(json.latestReceiptInfo(history, excludeOld: request.excludeOldTransactions))
    answer["pending_renewal_info"] = .array(records.map(json.pendingRenewalInfo))
    return .object(answer)
  }
}
