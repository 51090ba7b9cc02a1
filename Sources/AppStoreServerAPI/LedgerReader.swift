import Foundation
import StoreEngine

/// Reads what one request needs from the ledger, fresh each time (another process may have committed
/// since), and keeps the environments apart: only rows signed for this server's environment and app
/// exist for it.
struct LedgerReader {
  var ledger: any LedgerStore
  var environment: ServerEnvironment
  var bundleID: String

  /// Who an `anyTransactionId` names: an account, found by one of its transactions or by its
  /// `appTransactionId`.
  struct Customer {
    var account: String
    var byAppTransactionID: Bool
  }

  /// The row `id` if it exists for this server.
  func transaction(_ id: PaymentTransaction.ID) throws(APIError) -> SignedTransaction? {
    try read { () throws(LedgerError) in try ledger.transactions([id]) }.first.flatMap(visible)
  }

  /// The customer an id path parameter names; 400 for an id that is not a number, 404 for one that
  /// names nothing here (another environment's included).
  func customer(_ text: String) throws(APIError) -> Customer {
    let id = try Self.parseID(text)
    if let row = try transaction(id) { return Customer(account: row.row.account, byAppTransactionID: false) }
    for account in try snapshot().accounts where SignedPayloads.appTransactionID(account: account.name, bundleID: bundleID) == text {
      guard try hasHistory(account.name) else { break }
      return Customer(account: account.name, byAppTransactionID: true)
    }
    throw .transactionIDNotFound
  }

  /// The rows stored with these ids (those that exist).
  func rows(_ ids: [PaymentTransaction.ID]) throws(APIError) -> [PaymentTransaction] {
    try read { () throws(LedgerError) in try ledger.transactions(ids) }
  }

  /// Whether a server holds `row` (the rule of ``walkHistory(of:from:_:)``): purchases, renewals and
  /// refunds signed for this environment and app, not the StoreKit 1 restore rows (a device-side
  /// copy, §15 of DECISIONS).
  func served(_ row: PaymentTransaction) -> SignedTransaction? {
    row.state == .purchased ? visible(row) : nil
  }

  /// What a launch reads (``StoreEngine/LedgerStore/load()``): accounts, subscription records and
  /// the working set, not the history.
  func snapshot() throws(APIError) -> LedgerSnapshot {
    try read { () throws(LedgerError) in try ledger.load() }
  }

  /// The subscription records of `account` with one of Apple's `statuses` (empty: every one), by
  /// original id: that account's and those statuses' only, by the ledger's index, not every
  /// record of ``snapshot()``.
  func subscriptions(of account: String, appleStatuses statuses: Set<Int>) throws(APIError) -> [SubscriptionRecord] {
    let all: [SubscriptionStatus] = [.subscribed, .expired, .inBillingRetry, .inGracePeriod, .revoked]
    let wanted = statuses.isEmpty ? nil : Set(all.filter { statuses.contains($0.appleStatus) })
    return try read { () throws(LedgerError) in try ledger.subscriptions(account: account, statuses: wanted) }
  }

  /// The mass extension `requestID` of `productID`, if one was made.
  func massExtension(productID: Product.ID, requestID: String) throws(APIError) -> MassExtension? {
    try read { () throws(LedgerError) in try ledger.massExtension(productID: productID, requestID: requestID) }
  }

  private func visible(_ row: PaymentTransaction) -> SignedTransaction? {
    guard let signed = SignedTransaction(row), signed.environment == environment.payloadName, signed.bundleID == bundleID
    else { return nil }
    return signed
  }

  /// A transaction id path parameter: decimal digits that fit Apple's 64-bit ids.
  static func parseID(_ text: String) throws(APIError) -> PaymentTransaction.ID {
    guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let id = PaymentTransaction.ID(text)
    else { throw .invalidTransactionID }
    return id
  }

  /// A ledger another process holds locked is a retryable failure, never a silent empty answer.
  func read<Value>(_ body: () throws(LedgerError) -> Value) throws(APIError) -> Value {
    do {
      return try body()
    } catch .busy {
      throw .generalInternalRetryable
    } catch {
      throw .generalInternal
    }
  }
}
