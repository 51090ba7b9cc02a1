import AppStoreServerAPI
import Foundation

/// What a handler answers, and the API key it answered for (for the request log).
public struct HTTPReply: Sendable, Equatable {
  public var response: APIResponse
  /// The verified token's `kid`; nil when the request was not authenticated.
  public var keyID: String?
  /// What the request log passes on to the TUI; nil unless the gateway records details.
  public var details: RequestDetails?

  public init(_ response: APIResponse, keyID: String? = nil, details: RequestDetails? = nil) {
    self.response = response
    self.keyID = keyID
    self.details = details
  }

  /// Apple's error object, `{"errorCode": N, "errorMessage": "…"}`, with the status its code starts with.
  public static func apiError(code: Int, message: String) -> HTTPReply {
    let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    let body = "{\"errorCode\":\(code),\"errorMessage\":\"\(escaped)\"}"
    return HTTPReply(APIResponse(status: code / 10_000, body: Data(body.utf8)))
  }

  /// What a handler that threw gets: Apple's `GeneralInternalError`.
  public static let internalError = apiError(code: 5_000_000, message: "An unknown error occurred.")

  /// A connection beyond the server's limit: Apple's `RateLimitExceededError`, then the connection is closed.
  public static let rateLimited = apiError(code: 4_290_000, message: "Rate limit exceeded.")

  /// A body over the server's limit. Apple documents no code for it, so the general bad request's text.
  public static let payloadTooLarge = HTTPReply(
    APIResponse(status: 413, body: Data("{\"errorCode\":4000000,\"errorMessage\":\"Request body too large.\"}".utf8)))
}
