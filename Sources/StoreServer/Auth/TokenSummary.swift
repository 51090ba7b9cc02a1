import Foundation

/// What a request's bearer token says, decoded but not trusted: its header and the claims Apple
/// checks, for reading in the TUI. Never the token itself or its signature.
public struct TokenSummary: Sendable, Equatable {
  public var algorithm: String?
  public var keyID: String?
  public var type: String?
  public var issuer: String?
  public var audience: [String]
  public var bundleID: String?
  /// `iat` in seconds since 1970, possibly fractional.
  public var issuedAt: Double?
  /// `exp` in seconds since 1970, possibly fractional.
  public var expires: Double?

  public init(
    algorithm: String?, keyID: String?, type: String? = nil, issuer: String?, audience: [String], bundleID: String?,
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

  /// The token in an `Authorization: Bearer …` value; nil when there is none or it does not decode.
  public init?(authorization: String?) {
    guard let authorization, authorization.prefix(7).lowercased() == "bearer ",
      let parts = JWTParts(authorization.dropFirst(7).drop { $0 == " " })
    else { return nil }
    self.init(
      algorithm: parts.header.alg, keyID: parts.header.kid, type: parts.header.typ, issuer: parts.claims.iss,
      audience: parts.claims.aud?.values ?? [], bundleID: parts.claims.bid, issuedAt: parts.claims.iat,
      expires: parts.claims.exp)
  }
}
