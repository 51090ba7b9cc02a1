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
