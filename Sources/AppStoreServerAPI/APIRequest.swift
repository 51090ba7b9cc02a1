import Foundation

/// One HTTP request as the App Store Server API handlers see it: already read off the wire and
/// authenticated by the server (``StoreServer``), independent of the HTTP library.
public struct APIRequest: Sendable, Equatable {
  /// `GET`, `POST`, `PUT`, …
  public var method: String
  /// The path without the query string, percent-decoding left to the handlers (`/inApps/v1/transactions/2000000000000001`).
  public var path: String
  /// The query parameters in the order they came, repeated names kept (`productId=a&productId=b`).
  public var query: [(name: String, value: String)]
  /// The request body (JSON for the PUT and POST endpoints).
  public var body: Data
  /// The API key id (`kid`) of the verified bearer token, for logs.
  public var keyID: String?

  public init(method: String, path: String, query: [(name: String, value: String)] = [], body: Data = Data(), keyID: String? = nil) {
    self.method = method
    self.path = path
    self.query = query
    self.body = body
    self.keyID = keyID
  }

  public static func == (lhs: APIRequest, rhs: APIRequest) -> Bool {
    lhs.method == rhs.method && lhs.path == rhs.path && lhs.body == rhs.body && lhs.keyID == rhs.keyID
      && lhs.query.map(\.name) == rhs.query.map(\.name) && lhs.query.map(\.value) == rhs.query.map(\.value)
  }
}
