/// Why a bearer token was refused. Every case answers Apple's 401; the reason is for tests and the TUI, never the client.
public enum TokenRejection: Error, Equatable, Sendable {
  case missingAuthorization
  /// Not `Bearer` plus three base64url parts of JSON.
  case malformed
  case unsupportedAlgorithm(String?)
  case unknownKey(String?)
  case revokedKey(String)
  case badSignature
  case wrongIssuer
  case wrongAudience
  case wrongBundleID
  case missingExpiry
  case expired
  /// `exp` more than 60 minutes after `iat` (or after now when there is no `iat`).
  case tooLongLived
}

extension TokenRejection {
  /// Why, in a few words, for the TUI's Server pane (the client only ever sees Apple's 401).
  public var reason: String {
    switch self {
    case .missingAuthorization: "no Authorization header"
    case .malformed: "not 'Bearer' and a JWT of three base64url parts"
    case .unsupportedAlgorithm(let alg): "alg '\(alg ?? "none")' is not ES256"
    case .unknownKey(let kid): kid.map { "no registered key '\($0)'" } ?? "no kid in the header"
    case .revokedKey(let kid): "key '\(kid)' is revoked"
    case .badSignature: "the signature does not verify with the key"
    case .wrongIssuer: "iss is not the key's issuer id"
    case .wrongAudience: "aud is not appstoreconnect-v1"
    case .wrongBundleID: "bid is not the app's bundle id"
    case .missingExpiry: "no exp"
    case .expired: "exp has passed"
    case .tooLongLived: "exp is more than 60 minutes after iat"
    }
  }
}
