import Foundation

/// How the app's server answered one ``AppServerRequest``: its status, or why there was none.
public struct AppServerAnswer: Sendable, Equatable {
  public var request: AppServerRequest
  /// The HTTP status, when the server answered.
  public var status: Int?
  /// Wall-clock milliseconds the call took.
  public var milliseconds: Int
  /// Why there was no usable answer (refused, timed out), or a note such as a missing receipt.
  public var error: String?

  public init(request: AppServerRequest, status: Int?, milliseconds: Int, error: String? = nil) {
    self.request = request
    self.status = status
    self.milliseconds = milliseconds
    self.error = error
  }

  /// A 2xx answer: the server has the purchase, and the app finishes the transaction.
  public var accepted: Bool { status.map { (200...299).contains($0) } ?? false }
}
