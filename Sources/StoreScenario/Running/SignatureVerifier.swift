/// Checks a JWS as a backend would, for `expect signed` and `expect unverified`. The CLI makes one
/// from the data directory's sandbox CA, so this module needs no OpenSSL.
public struct SignatureVerifier: Sendable {
  /// nil when the JWS verifies; otherwise why not, as a short clause.
  public var problem: @Sendable (_ jws: String) -> String?

  /// A verifier that asks `problem` about each JWS.
  public init(_ problem: @escaping @Sendable (_ jws: String) -> String?) {
    self.problem = problem
  }
}
