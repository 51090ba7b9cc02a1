import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `PUT /inApps/v2/transactions/consumption/{transactionId}`: checks the body as Apple documents it,
  /// stores it on the transaction (with an engine to run the command; without one it is only checked)
  /// and answers 202 with no body.
  func sendConsumptionInformation(_ text: String, body: Data) throws(APIError) -> APIResponse {
    let id = try LedgerReader.parseID(text)
    guard let request = try? JSONDecoder().decode(ConsumptionRequest.self, from: body) else { throw .generalBadRequest }
    guard request.customerConsented == .bool(true) else { throw .invalidCustomerConsented }
    guard case .bool(let sampleContentProvided) = request.sampleContentProvided else { throw .invalidSampleContentProvided }
    guard case .string(let delivery) = request.deliveryStatus, Self.deliveryStatuses.contains(delivery) else {
      throw .invalidDeliveryStatus
    }
    var refundPreference: String?
    if let preference = request.refundPreference {
      guard case .string(let value) = preference, Self.refundPreferences.contains(value) else {
        throw .badRequest("Invalid request. The refund preference field is invalid.")
      }
      refundPreference = value
    }
    var consumptionPercentage: Int?
    if let percentage = request.consumptionPercentage {
      guard case .integer(let value) = percentage, (0...100_000).contains(value) else {
        throw .badRequest("Invalid request. The consumption percentage is out of range.")
      }
      if delivery != "DELIVERED", value != 0 {
        throw .badRequest("Invalid request. The consumption percentage must be 0 for an undelivered purchase.")
      }
      consumptionPercentage = Int(value)
    }
    guard let signed = try reader.transaction(id) else {
      if (try? reader.customer(text))?.byAppTransactionID == true { throw .appTransactionIDNotSupported }
      throw .transactionIDNotFound
    }
    if signed.row.familySharedBy != nil { throw .familyTransactionNotSupported }
    if signed.row.productKind == .autoRenewableSubscription, refundPreference == "GRANT_PRORATED",
      request.consumptionPercentage != nil
    {
      throw .badRequest("Invalid request. Omit the consumption percentage for a prorated refund of an auto-renewable subscription.")
    }
    let information = ConsumptionInformation(
      customerConsented: true, sampleContentProvided: sampleContentProvided, deliveryStatus: delivery,
      consumptionPercentage: consumptionPercentage, refundPreference: refundPreference, receivedDate: now())
    do {
      _ = try perform?(.sendConsumptionInformation(id, information))
    } catch .ledger(.busy) {
      throw .generalInternalRetryable
    } catch {
      throw .generalInternal
    }
    return APIResponse(status: 202)
  }

  static let deliveryStatuses: Set<String> = [
    "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
  ]
  static let refundPreferences: Set<String> = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]
}
