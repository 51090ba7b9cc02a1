import COpenSSL
import Foundation

extension PrivateKey {
  /// The public half, to store where the private key must not go.
  public func publicKey() throws -> ES256PublicKey {
    let pem = try MemoryBIO.writing("writing a public key") { bio in PEM_write_bio_PUBKEY(bio, pointer) == 1 }
    return try ES256PublicKey(pem: pem)
  }

  /// The ES256 signature of `message` in JOSE form (raw `r||s`), as a JWT carries it.
  public func signES256(_ message: Data) throws -> Data {
    try ES256.sign(message, with: self)
  }
}
