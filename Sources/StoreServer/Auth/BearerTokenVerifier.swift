import Foundation
import StoreEngine

/// Checks `Authorization: Bearer <JWT>` as Apple does (reference §3.3): ES256 with a registered,
/// unrevoked `kid`; `iss` that key's issuer; `aud` `appstoreconnect-v1`; `bid` the app's; `exp` in the
/// future and at most 60 minutes after `iat`. `iat` and `typ` are optional, dates may be fractional,
/// unknown claims are ignored.
///
/// A verified token is remembered until it expires, so a backend reusing one token skips the
/// signature check; the key's revocation is still looked at on every request.
public final class BearerTokenVerifier: Sendable {
  public static let audience = "appstoreconnect-v1"
  /// Apple's longest token lifetime.
  public static let maximumLifetime: TimeInterval = 3600
  /// Remembered tokens beyond this make the cache drop the expired ones.
  private static let cacheLimit = 1024

  public let bundleIDs: Set<String>
  private let keys: APIKeyRing
  private let now: @Sendable () -> Date
  private let cache = Locked([String: VerifiedToken]())

  public init(keys: APIKeyRing, bundleIDs: Set<String>, now: @escaping @Sendable () -> Date) {
    self.keys = keys
    self.bundleIDs = bundleIDs
    self.now = now
  }

  /// The token in `authorization` (the header's value), or why it is refused.
  public func verify(authorization: String?) -> Result<VerifiedToken, TokenRejection> {
    guard let authorization, !authorization.isEmpty else { return .failure(.missingAuthorization) }
    let scheme = authorization.prefix(7)
    guard scheme.lowercased() == "bearer " else { return .failure(.malformed) }
    let token = authorization.dropFirst(7).drop { $0 == " " }
    let date = now()
    if let cached = cache.withLock({ $0[String(token)] }), cached.expires > date {
      guard let entry = keys.entry(cached.keyID) else { return .failure(.unknownKey(cached.keyID)) }
      return entry.key.isRevoked ? .failure(.revokedKey(cached.keyID)) : .success(cached)
    }
    let result = check(token, at: date)
    if case .success(let verified) = result { remember(String(token), verified, at: date) }
    return result
  }

  private func check(_ token: Substring, at date: Date) -> Result<VerifiedToken, TokenRejection> {
    guard let parts = JWTParts(token) else { return .failure(.malformed) }
    guard parts.header.alg == "ES256" else { return .failure(.unsupportedAlgorithm(parts.header.alg)) }
    guard let keyID = parts.header.kid, let entry = keys.entry(keyID), let publicKey = entry.publicKey else {
      return .failure(.unknownKey(parts.header.kid))
    }
    guard !entry.key.isRevoked else { return .failure(.revokedKey(keyID)) }
    guard publicKey.isValidSignature(parts.signature, of: parts.signingInput) else { return .failure(.badSignature) }
    let claims = parts.claims
    guard claims.iss == entry.key.issuerID else { return .failure(.wrongIssuer) }
    guard claims.aud?.values.contains(Self.audience) == true else { return .failure(.wrongAudience) }
    guard let bundleID = claims.bid, bundleIDs.contains(bundleID) else { return .failure(.wrongBundleID) }
    guard let exp = claims.exp else { return .failure(.missingExpiry) }
    let expires = Date(timeIntervalSince1970: exp)
    guard expires > date else { return .failure(.expired) }
    // Without iat the lifetime left is what counts (DECISIONS §15).
    let issued = claims.iat.map(Date.init(timeIntervalSince1970:)) ?? date
    guard expires.timeIntervalSince(issued) <= Self.maximumLifetime else { return .failure(.tooLongLived) }
    return .success(VerifiedToken(keyID: keyID, issuerID: entry.key.issuerID, bundleID: bundleID, expires: expires))
  }

  private func remember(_ token: String, _ verified: VerifiedToken, at date: Date) {
    cache.withLock { cache in
      if cache.count >= Self.cacheLimit { cache = cache.filter { $0.value.expires > date } }
      if cache.count < Self.cacheLimit { cache[token] = verified }
    }
  }
}
