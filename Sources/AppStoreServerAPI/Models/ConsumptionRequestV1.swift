/// The body of Send Consumption Information V1 (deprecated), every member as sent: integer codes.
struct ConsumptionRequestV1: Decodable {
  var accountTenure: JSONScalar?
  var appAccountToken: JSONScalar?
  var consumptionStatus: JSONScalar?
  var customerConsented: JSONScalar?
  var deliveryStatus: JSONScalar?
  var lifetimeDollarsPurchased: JSONScalar?
  var lifetimeDollarsRefunded: JSONScalar?
  var platform: JSONScalar?
  var playTime: JSONScalar?
  var refundPreference: JSONScalar?
  var sampleContentProvided: JSONScalar?
  var userStatus: JSONScalar?
}
