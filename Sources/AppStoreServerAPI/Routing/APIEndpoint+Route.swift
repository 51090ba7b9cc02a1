extension APIEndpoint {
  /// The endpoint `method` and `path` reach, or nil for an unknown path or a known path with another
  /// method: how a front end, a log or the OpenAPI description's test names a request. Whether the
  /// server serves it (Look Up Order ID on Sandbox, the extension without an engine) is not decided here.
  public init?(method: String, path: String) {
    guard case .endpoint(let endpoint, _) = APIRoute(method: method, path: path) else { return nil }
    self = endpoint
  }
}
