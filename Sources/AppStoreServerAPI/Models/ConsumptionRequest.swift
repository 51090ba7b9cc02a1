/// The body of Send Consumption Information (v2), every member as sent, checked by the handler.
struct ConsumptionRequest: Decodable {
  var customerConsented: JSONScalar?
  var sampleContentProvided: JSONScalar?
  var deliveryStatus: JSONScalar?
  var consumptionPercentage: JSONScalar?
  var refundPreference: JSONScalar?
}
