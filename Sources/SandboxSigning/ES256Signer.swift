import Foundation
import StoreEngine

/// Signs payloads as App Store-style compact JWS with the sandbox CA's leaf key.
///
/// Header `{"alg":"ES256","x5c":[leaf, intermediate, root]}` (standard base64 DER, as Apple's
/// production JWS have; no `typ` or `kid`), signature raw `r||s`. ECDSA signatures are randomized,
/// so two signatures of one payload differ; inject `UnsignedTestSigner` where bytes must repeat.
public struct ES256Signer: TransactionSigner {
  public let environment: String
  /// The certificates in the `x5c` header, leaf first.
  public let chain: [Certificate]
  private let key: PrivateKey

  /// A signer for `key`, whose certificate is `chain[0]`.
  public init(key: PrivateKey, chain: [Certificate], environment: String = "Sandbox") {
    self.key = key
    self.chain = chain
    self.environment = environment
  }

  public func sign(payload: Data) throws -> String {
    try ES256.compactJWS(
      header: JWSHeaderFields(x5c: chain.map { $0.der.base64EncodedString() }), payload: payload, key: key)
  }
}
