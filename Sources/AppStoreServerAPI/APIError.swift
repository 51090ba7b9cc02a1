import Foundation

/// One of Apple's App Store Server API errors: the HTTP status and the `{"errorCode", "errorMessage"}`
/// body Apple answers with (codes from Apple's libraries' `APIError` enums).
public struct APIError: Error, Sendable, Equatable {
  /// The HTTP status: the code's first three digits.
  public var status: Int
  /// Apple's `errorCode` (4040010).
  public var code: Int64
  /// Apple's `errorMessage`.
  public var message: String

  public init(status: Int, code: Int64, message: String) {
    self.status = status
    self.code = code
    self.message = message
  }

  /// The error's response: `application/json`, exactly the two keys Apple's libraries read.
  public var response: APIResponse {
    APIResponse(status: status, body: (try? ResponseEncoding.encode(ErrorPayload(errorCode: code, errorMessage: message))) ?? Data())
  }

  /// A 400 whose code Apple's libraries do not list (the consumption checks Apple names without
  /// a number): Apple's `GeneralBadRequestError`, with the named error as its message.
  static func badRequest(_ message: String) -> APIError { APIError(status: 400, code: 4_000_000, message: message) }

  static let generalBadRequest = APIError.badRequest("Bad request.")
  static let invalidRequestRevision = APIError(status: 400, code: 4_000_005, message: "Invalid request revision.")
  static let invalidTransactionID = APIError(status: 400, code: 4_000_006, message: "Invalid transaction id.")
  static let invalidOriginalTransactionID = APIError(status: 400, code: 4_000_008, message: "Invalid original transaction id.")
  static let invalidExtendByDays = APIError(status: 400, code: 4_000_009, message: "Invalid extend by days value.")
  static let invalidExtendReasonCode = APIError(status: 400, code: 4_000_010, message: "Invalid extend reason code.")
  static let invalidRequestIdentifier = APIError(status: 400, code: 4_000_011, message: "Invalid request identifier.")
  static let startDateTooFarInPast = APIError(status: 400, code: 4_000_012, message: "Invalid request. The start date is earlier than the allowed start date.")
  static let startDateAfterEndDate = APIError(status: 400, code: 4_000_013, message: "Invalid request. The end date precedes the start date or the dates are the same.")
  static let invalidPaginationToken = APIError(status: 400, code: 4_000_014, message: "Invalid request. The pagination token is invalid.")
  static let invalidStartDate = APIError(status: 400, code: 4_000_015, message: "Invalid request. The start date is not a timestamp value represented in milliseconds.")
  static let invalidEndDate = APIError(status: 400, code: 4_000_016, message: "Invalid request. The end date is not a timestamp value represented in milliseconds.")
  static let invalidNotificationType = APIError(status: 400, code: 4_000_018, message: "Invalid request. The notification type or subtype is invalid.")
  static let multipleFiltersSupplied = APIError(status: 400, code: 4_000_019, message: "Invalid request. Only one of transactionId or notificationType may be supplied.")
  static let invalidTestNotificationToken = APIError(status: 400, code: 4_000_020, message: "Invalid request. The test notification token is invalid.")
  static let invalidSort = APIError(status: 400, code: 4_000_021, message: "Invalid request. The sort parameter is invalid.")
  static let invalidProductType = APIError(status: 400, code: 4_000_022, message: "Invalid request. The product type parameter is invalid.")
  static let invalidProductID = APIError(status: 400, code: 4_000_023, message: "Invalid request. The product id parameter is invalid.")
  static let invalidSubscriptionGroupIdentifier = APIError(status: 400, code: 4_000_024, message: "Invalid request. The subscription group identifier parameter is invalid.")
  static let invalidExcludeRevoked = APIError(status: 400, code: 4_000_025, message: "Invalid request. The exclude revoked parameter is invalid.")
  static let invalidInAppOwnershipType = APIError(status: 400, code: 4_000_026, message: "Invalid request. The in-app ownership type parameter is invalid.")
  static let invalidEmptyStorefrontCountryCodeList = APIError(status: 400, code: 4_000_027, message: "Invalid request. If provided, the list of storefront country codes must not be empty.")
  static let invalidStorefrontCountryCode = APIError(status: 400, code: 4_000_028, message: "Invalid request. A storefront country code was invalid.")
  static let invalidRevoked = APIError(status: 400, code: 4_000_030, message: "Invalid request. The revoked parameter is invalid.")
  static let invalidStatus = APIError(status: 400, code: 4_000_031, message: "Invalid request. The status parameter is invalid.")
  static let invalidAccountTenure = APIError(status: 400, code: 4_000_032, message: "Invalid request. The account tenure field is invalid.")
  static let invalidAppAccountToken = APIError(status: 400, code: 4_000_033, message: "Invalid request. The app account token field is invalid.")
  static let invalidConsumptionStatus = APIError(status: 400, code: 4_000_034, message: "Invalid request. The consumption status field is invalid.")
  static let invalidCustomerConsented = APIError(status: 400, code: 4_000_035, message: "Invalid request. The customer consented field is invalid.")
  static let invalidLifetimeDollarsPurchased = APIError(status: 400, code: 4_000_037, message: "Invalid request. The lifetime dollars purchased field is invalid.")
  static let invalidLifetimeDollarsRefunded = APIError(status: 400, code: 4_000_038, message: "Invalid request. The lifetime dollars refunded field is invalid.")
  static let invalidPlatform = APIError(status: 400, code: 4_000_039, message: "Invalid request. The platform field is invalid.")
  static let invalidPlayTime = APIError(status: 400, code: 4_000_040, message: "Invalid request. The play time field is invalid.")
  static let invalidDeliveryStatus = APIError(status: 400, code: 4_000_036, message: "Invalid request. The delivery status field is invalid.")
  static let invalidSampleContentProvided = APIError(status: 400, code: 4_000_041, message: "Invalid request. The sample content provided field is invalid.")
  static let invalidUserStatus = APIError(status: 400, code: 4_000_042, message: "Invalid request. The user status field is invalid.")
  static let appTransactionIDNotSupported = APIError(status: 400, code: 4_000_048, message: "Invalid request. App transactions aren't supported by this endpoint.")
  static let invalidAppAccountTokenUUID = APIError(status: 400, code: 4_000_183, message: "Invalid request. The app account token field must be a valid UUID.")
  static let transactionIDIsNotOriginalTransactionID = APIError(status: 400, code: 4_000_187, message: "Invalid request. The transaction ID provided is not an original transaction ID.")
  static let familyTransactionNotSupported = APIError(status: 400, code: 4_000_185, message: "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
  static let subscriptionExtensionIneligible = APIError(status: 403, code: 4_030_004, message: "Forbidden - subscription state ineligible for extension.")
  static let subscriptionMaxExtension = APIError(status: 403, code: 4_030_005, message: "Forbidden - subscription has reached maximum extension count.")
  static let familySharedSubscriptionExtensionIneligible = APIError(status: 403, code: 4_030_007, message: "Subscriptions that users obtain through Family Sharing can't get a renewal date extension directly.")
  static let originalTransactionIDNotFound = APIError(status: 404, code: 4_040_005, message: "Original transaction id not found.")
  static let serverNotificationURLNotFound = APIError(status: 404, code: 4_040_007, message: "No App Store Server Notification URL found for provided app. Check that a URL is configured in App Store Connect for this environment.")
  static let statusRequestNotFound = APIError(status: 404, code: 4_040_009, message: "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination.")
  static let testNotificationNotFound = APIError(status: 404, code: 4_040_008, message: "Either the test notification token is expired or the notification and status are not yet available.")
  static let transactionIDNotFound = APIError(status: 404, code: 4_040_010, message: "Transaction id not found.")
  static let appTransactionDoesNotExist = APIError(status: 404, code: 4_040_019, message: "No AppTransaction exists for the customer.")
  /// `RateLimitExceededError`.
  public static let rateLimitExceeded = APIError(status: 429, code: 4_290_000, message: "Rate limit exceeded.")
  /// `GeneralInternalError`.
  public static let generalInternal = APIError(status: 500, code: 5_000_000, message: "An unknown error occurred.")
  /// `GeneralInternalRetryableError`.
  public static let generalInternalRetryable = APIError(status: 500, code: 5_000_001, message: "An unknown error occurred. Please try again.")
}
