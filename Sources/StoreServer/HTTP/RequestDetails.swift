import Foundation

/// What the TUI's Server pane shows of one request beyond its log line: the query, the decoded
/// token (or why it was refused) and the response body. The gateway records it only when asked
/// (``APIGateway/init(verifier:requestID:recordsDetails:endpoints:)``), so `serve` pays nothing for it.
public struct RequestDetails: Sendable, Equatable {
  /// The query parameters in arrival order.
  public var query: [QueryItem]
  /// The bearer token's header and claims; nil when there was none or it did not decode.
  public var token: TokenSummary?
  /// Why the token was refused; nil when it was accepted.
  public var rejection: String?
  public var contentType: String
  /// The whole response body, as sent.
  public var body: Data

  public init(query: [QueryItem], token: TokenSummary?, rejection: String?, contentType: String, body: Data) {
    self.query = query
    self.token = token
    self.rejection = rejection
    self.contentType = contentType
    self.body = body
  }
}
