import Foundation

/// One request the in-process App Store Server API answered, as the Server pane shows it.
///
/// The composition root builds it from the server's request log on the server's threads, so it is
/// a plain value; the body is cut to ``bodyLimit`` there.
public struct ServerRequest: Equatable, Sendable {
  /// A bearer token's header and the claims Apple checks, decoded but not trusted (never the token itself).
  public struct Token: Equatable, Sendable {
    public var algorithm: String?
    public var keyID: String?
    public var type: String?
    public var issuer: String?
    public var audience: [String]
    public var bundleID: String?
    /// Seconds since 1970.
    public var issuedAt: Double?
    /// Seconds since 1970.
    public var expires: Double?

    public init(
      algorithm: String?, keyID: String?, type: String?, issuer: String?, audience: [String], bundleID: String?,
      issuedAt: Double?, expires: Double?
    ) {
      self.algorithm = algorithm
      self.keyID = keyID
      self.type = type
      self.issuer = issuer
      self.audience = audience
      self.bundleID = bundleID
      self.issuedAt = issuedAt
      self.expires = expires
    }
  }

  /// Response bodies kept per request; the rest is dropped (and said so).
  public static let bodyLimit = 64 << 10

  /// 1 for the first request of the session, then counting; set by ``ServerLog/record(_:)``.
  public internal(set) var number = 0
  /// When it arrived (real time).
  public var date: Date
  public var method: String
  public var path: String
  /// The query string as `name=value&…`, empty when there was none.
  public var query: String
  public var status: Int
  public var latencyNanoseconds: UInt64
  /// The verified key; nil when the request was refused.
  public var keyID: String?
  public var token: Token?
  /// Why the token was refused; nil when it was accepted.
  public var rejection: String?
  public var contentType: String
  /// The response body, at most ``bodyLimit`` bytes.
  public var body: Data
  /// The whole body's size.
  public var bodySize: Int

  public init(
    date: Date, method: String, path: String, query: String = "", status: Int, latencyNanoseconds: UInt64, keyID: String?,
    token: Token? = nil, rejection: String? = nil, contentType: String = "", body: Data = Data()
  ) {
    self.date = date
    self.method = method
    self.path = path
    self.query = query
    self.status = status
    self.latencyNanoseconds = latencyNanoseconds
    self.keyID = keyID
    self.token = token
    self.rejection = rejection
    self.contentType = contentType
    self.body = body.prefix(Self.bodyLimit)
    self.bodySize = body.count
  }

  /// `0.42 ms`.
  public var latencyText: String {
    String(format: "%.2f ms", Double(latencyNanoseconds) / 1_000_000)
  }
}
