/// A `verifyReceipt` fault from the sandbox controls: answer `status` (one of the retryable
/// 21100–21199) with `is-retryable`, for the next `remaining` requests, or every request when nil.
public struct ReceiptFault: Sendable, Equatable, Codable {
  public var status: Int
  public var remaining: Int?

  public init(status: Int, remaining: Int? = nil) {
    self.status = status
    self.remaining = remaining
  }
}
