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
  /// The encoded header, the same for every JWS of this signer: made once, not per signature
  /// (encoding the ~3.5 KB chain was a third of a renewal's signing cost).
  private let encodedHeader: Result<String, EncodingFailure>

  private struct EncodingFailure: Error { var reason: String }

  /// A signer for `key`, whose certificate is `chain[0]`.
  public init(key: PrivateKey, chain: [Certificate], environment: String = "Sandbox") {
    self.key = key
    self.chain = chain
    self.environment = environment
    let header = JWSHeaderFields(x5c: chain.map { $0.der.base64EncodedString() })
    do {
      encodedHeader = .success(try ES256.encodedHeader(header))
    } catch {
      encodedHeader = .failure(EncodingFailure(reason: String(describing: error)))
    }
  }

  public func sign(payload: Data) throws -> String {
    try ES256.compactJWS(encodedHeader: encodedHeader.get(), payload: payload, key: key)
  }
}
