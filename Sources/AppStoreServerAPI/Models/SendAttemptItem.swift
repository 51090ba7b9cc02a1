import StoreEngine

/// One delivery attempt of a notification: `attemptDate` (ms) and Apple's `sendAttemptResult`.
struct SendAttemptItem: Encodable {
  var attemptDate: Int64
  var sendAttemptResult: String

  init(_ attempt: DeliveryAttempt) {
    attemptDate = SignedPayloads.milliseconds(attempt.date)
    sendAttemptResult = attempt.result.rawValue
  }
}
