import AppStoreServerAPI
import Foundation

/// The server's front door: authenticates each request, then hands it to the endpoints.
///
/// A refused token gets Apple's 401, a plain-text body and no JSON (reference §3.4), so every
/// Apple library reports "401, no error code" as it does against Apple.
public struct APIGateway: Sendable {
  /// The endpoints: `AppStoreServerAPI(...).handle`, or a test's handler.
  public typealias Endpoints = @Sendable (APIRequest) throws -> APIResponse

  private let verifier: BearerTokenVerifier
  private let endpoints: Endpoints
  private let requestID: @Sendable () -> String
  private let recordsDetails: Bool

  /// - Parameters:
  ///   - requestID: The id in a 401's body (Apple's look like `…0.0`); injected so tests can match it.
  ///   - recordsDetails: Whether each reply carries ``RequestDetails`` (the decoded token, the body) for
  ///     the request log: the TUI's Server pane asks for them, `serve` does not.
  public init(
    verifier: BearerTokenVerifier, requestID: @escaping @Sendable () -> String, recordsDetails: Bool = false,
    endpoints: @escaping Endpoints
  ) {
    self.verifier = verifier
    self.endpoints = endpoints
    self.requestID = requestID
    self.recordsDetails = recordsDetails
  }

  /// Answers `request`; a throwing endpoint becomes the server's 500.
  public func reply(to request: HTTPRequest) throws -> HTTPReply {
    let authorization = request.header("Authorization")
    var reply: HTTPReply
    var rejection: TokenRejection?
    switch verifier.verify(authorization: authorization) {
    case .failure(let refused):
      rejection = refused
      reply = HTTPReply(Self.unauthenticated(requestID: requestID()))
    case .success(let token):
      let api = APIRequest(
        method: request.method, path: request.path, query: request.query.map { (name: $0.name, value: $0.value) }, body: request.body,
        keyID: token.keyID)
      reply = HTTPReply(try endpoints(api), keyID: token.keyID)
    }
    if recordsDetails {
      reply.details = RequestDetails(
        query: request.query, token: TokenSummary(authorization: authorization), rejection: rejection?.reason,
        contentType: reply.response.contentType, body: reply.response.body)
    }
    return reply
  }

  /// Apple's 401 as recorded from its servers: `Unauthenticated\n\nRequest ID: <ID>.0.0\n`.
  public static func unauthenticated(requestID: String) -> APIResponse {
    APIResponse(status: 401, contentType: "text/plain", body: Data("Unauthenticated\n\nRequest ID: \(requestID).0.0\n".utf8))
  }
}
