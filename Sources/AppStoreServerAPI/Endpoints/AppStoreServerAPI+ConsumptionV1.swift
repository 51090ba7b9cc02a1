import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `PUT /inApps/v1/transactions/consumption/{transactionId}` (deprecated): Apple's integer-coded
  /// report, checked field by field (4000032–4000042) and kept as the v2 report it corresponds to.
  func sendConsumptionInformationV1(_ text: String, body: Data) throws(APIError) -> APIResponse {
    let id = try LedgerReader.parseID(text)
    guard let request = try? JSONDecoder().decode(ConsumptionRequestV1.self, from: body) else { throw .generalBadRequest }
    guard request.customerConsented == .bool(true) else { throw .invalidCustomerConsented }
    _ = try Self.code(request.accountTenure, in: 0...7, else: .invalidAccountTenure)
    let consumption = try Self.code(request.consumptionStatus, in: 0...3, else: .invalidConsumptionStatus)
    let delivery = try Self.code(request.deliveryStatus, in: 0...5, else: .invalidDeliveryStatus)
    _ = try Self.code(request.lifetimeDollarsPurchased, in: 0...7, else: .invalidLifetimeDollarsPurchased)
    _ = try Self.code(request.lifetimeDollarsRefunded, in: 0...7, else: .invalidLifetimeDollarsRefunded)
    _ = try Self.code(request.platform, in: 0...2, else: .invalidPlatform)
    _ = try Self.code(request.playTime, in: 0...7, else: .invalidPlayTime)
    _ = try Self.code(request.userStatus, in: 0...4, else: .invalidUserStatus)
    guard case .bool(let sampleContentProvided) = request.sampleContentProvided else { throw .invalidSampleContentProvided }
    // An empty string is how the libraries send "no token".
    guard case .string(let token) = request.appAccountToken, token.isEmpty || UUID(uuidString: token) != nil else {
      throw .invalidAppAccountToken
    }
    var preference: Int64?
    if let given = request.refundPreference {
      guard let value = given.integer, (0...3).contains(value) else {
        throw .badRequest("Invalid request. The refund preference field is invalid.")
      }
      preference = value
    }
    guard let signed = try reader.transaction(id) else {
      if (try? reader.customer(text))?.byAppTransactionID == true { throw .appTransactionIDNotSupported }
      throw .transactionIDNotFound
    }
    if signed.row.familySharedBy != nil { throw .familyTransactionNotSupported }
    let information = ConsumptionInformation(
      customerConsented: true, sampleContentProvided: sampleContentProvided, deliveryStatus: Self.deliveryNames[Int(delivery)],
      consumptionPercentage: Self.percentages[Int(consumption)],
      refundPreference: preference.flatMap { Self.preferenceNames[Int($0)] }, receivedDate: now())
    do {
      _ = try perform?(.sendConsumptionInformation(id, information))
    } catch .ledger(.busy) {
      throw .generalInternalRetryable
    } catch {
      throw .generalInternal
    }
    return APIResponse(status: 202)
  }

  /// A required integer code within `range`.
  private static func code(_ value: JSONScalar?, in range: ClosedRange<Int64>, else error: APIError) throws(APIError) -> Int64 {
    guard let code = value?.integer, range.contains(code) else { throw error }
    return code
  }

  /// V1 `deliveryStatus` 0–5 as the v2 names (4, an in-game currency change, and 5, other, are both "other").
  private static let deliveryNames = [
    "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
    "UNDELIVERED_OTHER",
  ]
  /// V1 `consumptionStatus` 0–3 (undeclared, not, partially, fully consumed) as a v2 percentage where it says one.
  private static let percentages: [Int?] = [nil, 0, nil, 100_000]
  /// V1 `refundPreference` 0–3 (undeclared, prefer grant, prefer decline, no preference) as the v2 names.
  private static let preferenceNames: [String?] = [nil, "GRANT_FULL", "DECLINE", nil]
}
