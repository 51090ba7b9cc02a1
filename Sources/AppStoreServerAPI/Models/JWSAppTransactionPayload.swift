/// The payload of a signed app transaction (`JWSAppTransactionDecodedPayload`), with Apple's names.
struct JWSAppTransactionPayload: Encodable {
  var receiptType: String
  var appAppleId: Int64?
  var bundleId: String
  var applicationVersion: String
  var receiptCreationDate: Int64
  var originalPurchaseDate: Int64
  var originalApplicationVersion: String
  var appTransactionId: String
  var originalPlatform: String
  var signedDate: Int64
}
