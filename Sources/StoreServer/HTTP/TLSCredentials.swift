import Foundation

/// What HTTPS is served with: a PEM certificate (optionally followed by its intermediates) and its
/// PEM private key. libmicrohttpd hands both to GnuTLS; the server never reads files itself.
public struct TLSCredentials: Sendable, Equatable {
  public var certificatePEM: Data
  public var keyPEM: Data

  public init(certificatePEM: Data, keyPEM: Data) {
    self.certificatePEM = certificatePEM
    self.keyPEM = keyPEM
  }
}
