import Foundation
import StoreEngine

extension AppStoreServerAPI {
  /// `POST /inApps/v1/subscriptions/extend/mass`: every active subscriber of the product (in the
  /// given storefronts) gets `extendByDays` more. Carried out at once (Apple takes hours), so the
  /// status endpoint answers complete right away; a request identifier already used for the product
  /// answers the same and changes nothing.
  func massExtendRenewalDate(body: Data) throws(APIError) -> APIResponse {
    guard let perform else { throw .generalInternal }
    guard let request = try? JSONDecoder().decode(MassExtendRenewalDateRequest.self, from: body) else { throw .generalBadRequest }
    let (days, reason, requestID) = try Self.extensionTerms(
      days: request.extendByDays, reason: request.extendReasonCode, requestID: request.requestIdentifier)
    guard case .string(let product) = request.productId, Self.isProductID(product) else { throw .invalidProductID }
    var storefronts: [String]?
    if let codes = request.storefrontCountryCodes {
      guard !codes.isEmpty else { throw .invalidEmptyStorefrontCountryCodeList }
      storefronts = try codes.map { code throws(APIError) in
        guard case .string(let text) = code, text.utf8.count == 3, let storefront = Storefront.lookup(text) else {
          throw .invalidStorefrontCountryCode
        }
        return storefront.code
      }
    }
    let productID = Product.ID(rawValue: product)
    if try reader.massExtension(productID: productID, requestID: requestID) == nil {
      do {
        _ = try perform(
          .extendRenewalDates(
            MassExtension(productID: productID, requestID: requestID, days: days, reasonCode: reason, storefronts: storefronts)))
      } catch .notSubscriptionProduct {
        throw .invalidProductID
      } catch .ledger(.busy) {
        throw .generalInternalRetryable
      } catch {
        throw .generalInternal
      }
    }
    return try ResponseEncoding.response(MassExtendRenewalDateResponse(requestIdentifier: requestID))
  }

  /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`.
  func massExtensionStatus(productID: String, requestID: String) throws(APIError) -> APIResponse {
    guard Self.isProductID(productID) else { throw .invalidProductID }
    guard !requestID.isEmpty, requestID.utf8.count <= 128 else { throw .invalidRequestIdentifier }
    guard let found = try reader.massExtension(productID: Product.ID(rawValue: productID), requestID: requestID) else {
      throw .statusRequestNotFound
    }
    return try ResponseEncoding.response(
      MassExtendRenewalDateStatusResponse(
        requestIdentifier: found.requestID, complete: found.completeDate != nil,
        completeDate: found.completeDate.map(SignedPayloads.milliseconds), succeededCount: Int64(found.succeeded),
        failedCount: Int64(found.failed)))
  }

  /// A product identifier as App Store Connect allows them: 1–100 of letters, digits, `.` and `_`
  /// (our catalogs also use `-`).
  static func isProductID(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.count <= 100
      && text.utf8.allSatisfy { $0 == 0x2E || $0 == 0x5F || $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
  }
}
