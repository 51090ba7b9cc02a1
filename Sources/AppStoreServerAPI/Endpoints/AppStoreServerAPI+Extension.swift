import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`: the active subscription's
  /// current period ends `extendByDays` later (at most 90; twice in 365 days); a `requestIdentifier`
  /// already applied answers the same without extending again.
  func extendRenewalDate(_ text: String, body: Data) throws(APIError) -> APIResponse {
    guard let perform else { throw .generalInternal }
    guard let id = try? LedgerReader.parseID(text) else { throw .invalidOriginalTransactionID }
    guard let request = try? JSONDecoder().decode(ExtendRenewalDateRequest.self, from: body) else { throw .generalBadRequest }
    let (days, _, requestID) = try Self.extensionTerms(
      days: request.extendByDays, reason: request.extendReasonCode, requestID: request.requestIdentifier)
    guard let signed = try reader.transaction(id), signed.row.originalID == id, signed.row.productKind == .autoRenewableSubscription
    else { throw .originalTransactionIDNotFound }
    if signed.row.familySharedBy != nil { throw .familySharedSubscriptionExtensionIneligible }
    do {
      _ = try perform(.extendRenewalDate(id, days: days, requestID: requestID))
    } catch .cannotExtend(_, let why) {
      switch why {
      case .notActive: throw .subscriptionExtensionIneligible
      case .tooManyExtensions: throw .subscriptionMaxExtension
      case .familyShared: throw .familySharedSubscriptionExtensionIneligible
      }
    } catch .ledger(.busy) {
      throw .generalInternalRetryable
    } catch .notSubscription {
      throw .originalTransactionIDNotFound
    } catch {
      throw .generalInternal
    }
    guard let record = try reader.subscriptions(of: signed.row.account, appleStatuses: []).first(where: { $0.originalID == id }) else {
      throw .generalInternal
    }
    return try ResponseEncoding.response(
      ExtendRenewalDateResponse(
        originalTransactionId: id.description, webOrderLineItemId: String(record.webOrderLineItemID), success: true,
        effectiveDate: SignedPayloads.milliseconds(record.expiresDate)))
  }

  /// The three members both extension requests share, checked as Apple checks them: at most 90 days,
  /// a reason code 0–3, a request identifier of 1–128 bytes.
  static func extensionTerms(
    days: JSONScalar?, reason: JSONScalar?, requestID: JSONScalar?
  ) throws(APIError) -> (days: Int, reason: Int, requestID: String) {
    guard let days = days?.integer, (1...90).contains(days) else { throw .invalidExtendByDays }
    guard let reason = reason?.integer, (0...3).contains(reason) else { throw .invalidExtendReasonCode }
    guard case .string(let text) = requestID, !text.isEmpty, text.utf8.count <= 128 else { throw .invalidRequestIdentifier }
    return (Int(days), Int(reason), text)
  }
}
