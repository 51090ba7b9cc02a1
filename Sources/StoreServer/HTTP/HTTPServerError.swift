/// Why the server did not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
  /// libmicrohttpd could not bind or start (the port is taken, the address is not this machine's).
  case cannotListen(ListenAddress)
  /// This libmicrohttpd was built without TLS, so `--tls` cannot be served.
  case tlsUnsupported
  /// HTTPS did not start: the port is taken, or GnuTLS refused the certificate or key.
  case cannotStartTLS(ListenAddress)

  public var description: String {
    switch self {
    case .cannotListen(let address):
      return "cannot listen on \(address): the port may be in use or the address not this machine's"
    case .tlsUnsupported:
      return "this libmicrohttpd was built without TLS support (MHD_FEATURE_TLS), so HTTPS cannot be served; "
        + "install a libmicrohttpd built with GnuTLS (Debian's libmicrohttpd12 is) or serve plain HTTP"
    case .cannotStartTLS(let address):
      return "cannot serve HTTPS on \(address): the port may be in use, or GnuTLS refused the certificate or key"
    }
  }
}
