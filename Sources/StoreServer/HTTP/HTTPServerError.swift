/// Why the server did not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
  /// libmicrohttpd could not bind or start (the port is taken, the address is not this machine's).
  case cannotListen(ListenAddress)

  public var description: String {
    switch self {
    case .cannotListen(let address):
      return "cannot listen on \(address): the port may be in use or the address not this machine's"
    }
  }
}
