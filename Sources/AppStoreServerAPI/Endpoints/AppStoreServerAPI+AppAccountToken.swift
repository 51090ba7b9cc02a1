import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`: the purchase carries the
  /// token from now on (re-signed); 200 with no body.
  func setAppAccountToken(_ text: String, body: Data) throws(APIError) -> APIResponse {
    guard let perform else { throw .generalInternal }
    let id = try LedgerReader.parseID(text)
    guard let request = try? JSONDecoder().decode(UpdateAppAccountTokenRequest.self, from: body) else { throw .generalBadRequest }
    guard case .string(let value) = request.appAccountToken, let token = UUID(uuidString: value) else {
      throw .invalidAppAccountTokenUUID
    }
    guard let signed = try reader.transaction(id) else {
      if (try? reader.customer(text))?.byAppTransactionID == true { throw .appTransactionIDNotSupported }
      throw .originalTransactionIDNotFound
    }
    if signed.row.familySharedBy != nil { throw .familyTransactionNotSupported }
    guard signed.row.originalID == id else { throw .transactionIDIsNotOriginalTransactionID }
    do {
      _ = try perform(.setAppAccountToken(id, token: token.uuidString.lowercased()))
    } catch .ledger(.busy) {
      throw .generalInternalRetryable
    } catch {
      throw .generalInternal
    }
    return APIResponse(status: 200)
  }
}
