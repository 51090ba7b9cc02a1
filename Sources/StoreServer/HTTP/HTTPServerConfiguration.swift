import Foundation

/// How the server listens and the limits that protect it from big or slow clients.
public struct HTTPServerConfiguration: Sendable, Equatable {
  /// How libmicrohttpd runs the handler.
  public enum Threading: Sendable, Equatable {
    /// One internal polling thread answers every connection in turn.
    case internalThread
    /// A thread per connection, so one slow answer (a ledger locked by a writer) delays only its client.
    case threadPerConnection
  }

  public var address: ListenAddress
  public var threading: Threading
  /// Largest request body accepted; a bigger one gets 413.
  public var maximumBodySize: Int
  /// libmicrohttpd's per-connection memory pool: request headers that do not fit get 431.
  public var connectionMemoryLimit: Int
  /// Requests on connections beyond this get Apple's 429 and the connection is closed.
  public var connectionLimit: Int
  /// Seconds a connection may stay idle (a slow client, an unused keep-alive) before it is closed.
  public var connectionTimeout: Int
  /// The certificate and key to serve HTTPS with; nil serves plain HTTP.
  public var tls: TLSCredentials?

  public init(
    address: ListenAddress = .default, threading: Threading = .threadPerConnection, maximumBodySize: Int = 1 << 20,
    connectionMemoryLimit: Int = 64 << 10, connectionLimit: Int = 64, connectionTimeout: Int = 30, tls: TLSCredentials? = nil
  ) {
    self.address = address
    self.threading = threading
    self.maximumBodySize = maximumBodySize
    self.connectionMemoryLimit = connectionMemoryLimit
    self.connectionLimit = connectionLimit
    self.connectionTimeout = connectionTimeout
    self.tls = tls
  }

  /// `https` with TLS credentials, else `http`.
  public var scheme: String { tls == nil ? "http" : "https" }
}
