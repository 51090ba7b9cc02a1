import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `POST /inApps/v1/transactions/{transactionId}/finish`: the server finished the transaction, so
  /// the app's queue no longer delivers it; 200 with no body, also when it was finished already.
  func finishTransaction(_ text: String) throws(APIError) -> APIResponse {
    guard let perform else { throw .generalInternal }
    let id = try LedgerReader.parseID(text)
    guard let signed = try reader.transaction(id) else {
      if (try? reader.customer(text))?.byAppTransactionID == true { throw .appTransactionIDNotSupported }
      throw .transactionIDNotFound
    }
    guard !signed.row.isFinished else { return APIResponse(status: 200) }
    do {
      _ = try perform(.finish(id))
    } catch .alreadyFinished {
      // Another process finished it meanwhile: the same outcome.
    } catch .ledger(.busy) {
      throw .generalInternalRetryable
    } catch {
      throw .generalInternal
    }
    return APIResponse(status: 200)
  }
}
