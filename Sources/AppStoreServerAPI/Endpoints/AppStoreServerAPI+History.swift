import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `GET /inApps/v2/history/{anyTransactionId}` and the deprecated v1: every filter, 20 a page, in
  /// last-modified order (the JWS `signedDate`: a refund or an upgrade re-signs a row, which then comes
  /// again after the rows already paged past, as Apple's ascending history does).
  func transactionHistory(_ text: String, query: QueryParameters, version2: Bool) throws(APIError) -> APIResponse {
    _ = try LedgerReader.parseID(text)
    let filter = try HistoryFilter(query, version2: version2)
    let position = try revision(query, kind: .history, descending: filter.descending)
    let customer = try reader.customer(text)
    // v1 leaves out consumables the app finished (Apple: "excludes finished consumables").
    let admits = { (row: SignedTransaction) in
      filter.admits(row) && (version2 || !(row.row.productKind == .consumable && row.row.isFinished))
    }
    let page = try Page(history: customer.account, reader: reader, after: position, admits: admits)
    return try ResponseEncoding.response(
      HistoryResponse(
        revision: page.next.text, hasMore: page.hasMore, bundleId: bundleID, appAppleId: appAppleID,
        environment: environment.payloadName, signedTransactions: page.items.map(\.jws)))
  }

  /// `GET /inApps/v2/refund/lookup/{anyTransactionId}`: revoked transactions, oldest revocation first.
  func refundHistory(_ text: String, query: QueryParameters) throws(APIError) -> APIResponse {
    _ = try LedgerReader.parseID(text)
    let position = try revision(query, kind: .refunds, descending: false)
    let customer = try reader.customer(text)
    // The ledger's revocation pages, from the position on, until a page (and one) is kept.
    func revoked(_ row: SignedTransaction) -> Int64 { SignedPayloads.milliseconds(row.row.revocationDate ?? .distantPast) }
    let start = position == .start(.refunds, descending: false)
      ? nil : RevocationKey(milliseconds: position.date, id: PaymentTransaction.ID(position.id))
    var items: [SignedTransaction] = []
    try reader.walkRevocations(of: customer.account, descending: false, from: start) { row in
      items.append(row)
      return items.count <= Page.size
    }
    let page = Page(items, after: position, key: revoked)
    return try ResponseEncoding.response(
      RefundHistoryResponse(signedTransactions: page.items.map(\.jws), revision: page.next.text, hasMore: page.hasMore))
  }

  /// `GET /inApps/v1/refund/lookup/{originalTransactionId}` (deprecated): the customer's most recent
  /// 50 refunds, oldest revocation first, without paging.
  func refundHistoryV1(_ text: String) throws(APIError) -> APIResponse {
    guard (try? LedgerReader.parseID(text)) != nil else { throw .invalidOriginalTransactionID }
    let customer: LedgerReader.Customer
    do {
      customer = try reader.customer(text)
    } catch .transactionIDNotFound {
      throw .originalTransactionIDNotFound
    }
    // The 50 newest revocations, read newest first, answered oldest first.
    var newest: [SignedTransaction] = []
    try reader.walkRevocations(of: customer.account, descending: true, from: nil) { row in
      newest.append(row)
      return newest.count < 50
    }
    return try ResponseEncoding.response(RefundLookupResponse(signedTransactions: newest.reversed().map(\.jws)))
  }

  /// The position `revision` stands for (the start without one); a token not issued for this
  /// endpoint and order is `InvalidRequestRevisionError`.
  private func revision(_ query: QueryParameters, kind: PageToken.Kind, descending: Bool) throws(APIError) -> PageToken {
    guard let text = try query.single("revision", invalid: .invalidRequestRevision) else {
      return .start(kind, descending: descending)
    }
    guard let token = PageToken(text, kind: kind), token.descending == descending else { throw .invalidRequestRevision }
    return token
  }
}
