import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `GET /inApps/v1/transactions/{transactionId}`.
  func transactionInfo(_ text: String) throws(APIError) -> APIResponse {
    let id = try LedgerReader.parseID(text)
    guard let signed = try reader.transaction(id) else {
      // An app transaction id names a customer, not a transaction.
      if (try? reader.customer(text))?.byAppTransactionID == true { throw .appTransactionIDNotSupported }
      throw .transactionIDNotFound
    }
    return try ResponseEncoding.response(TransactionInfoResponse(signedTransactionInfo: signed.jws))
  }

  /// `GET /inApps/v1/transactions/appTransactions/{anyTransactionId}`: the customer's app transaction,
  /// signed now (the ledger stores none).
  func appTransactionInfo(_ text: String) throws(APIError) -> APIResponse {
    let customer = try reader.customer(text)
    guard let signer else { throw .appTransactionDoesNotExist }
    // The earliest original purchase of the served history, read a ledger page at a time.
    var earliest: Date?
    try reader.walkHistory(of: customer.account, from: .start(.history, descending: false)) { row in
      earliest = min(earliest ?? row.row.originalPurchaseDate, row.row.originalPurchaseDate)
      return true
    }
    let payload = AppTransactionPayload(
      environment: environment.payloadName, appAppleID: appAppleID, bundleID: bundleID, account: customer.account,
      firstPurchase: earliest, now: now())
    do {
      let jws = try signer.sign(payload: try ResponseEncoding.encode(payload))
      return try ResponseEncoding.response(AppTransactionInfoResponse(signedAppTransactionInfo: jws))
    } catch {
      throw .generalInternal
    }
  }

  /// `GET /inApps/v1/lookup/{orderId}` (production only): the transaction the order id stands for.
  func lookUpOrder(_ orderID: String) throws(APIError) -> APIResponse {
    guard !orderID.isEmpty, orderID.utf8.count <= 64,
      orderID.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) })
    else { throw .generalBadRequest }
    guard let id = OrderID.transactionID(of: orderID), let signed = try reader.transaction(id),
      signed.row.state == .purchased, signed.row.familySharedBy == nil
    else { return try ResponseEncoding.response(OrderLookupResponse(status: 1, signedTransactions: nil)) }
    return try ResponseEncoding.response(OrderLookupResponse(status: 0, signedTransactions: [signed.jws]))
  }
}
