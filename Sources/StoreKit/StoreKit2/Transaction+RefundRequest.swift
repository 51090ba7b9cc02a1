import Foundation

extension Transaction {
  /// Why a refund request could not be made.
  public enum RefundRequestError: Error, LocalizedError, Equatable, Hashable, Sendable {
    /// A request for this transaction is already being reviewed.
    case duplicateRequest
    /// The request could not be submitted.
    case failed

    public var errorDescription: String? {
      switch self {
      case .duplicateRequest: "A refund request for this transaction is already in review."
      case .failed: "The refund request could not be submitted."
      }
    }
  }

  /// How the user left the refund request sheet.
  public enum RefundRequestStatus: Equatable, Hashable, Sendable {
    case userCancelled
    case success
  }
}
