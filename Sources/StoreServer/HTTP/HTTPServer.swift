import CMicroHTTPD
import Foundation

/// An HTTP/1.1 server on libmicrohttpd: every request is read, bounded, handed to `handler`, and answered.
///
/// The handler runs on libmicrohttpd's threads, several at once in ``HTTPServerConfiguration/Threading/threadPerConnection``
/// mode. A handler that throws answers Apple's `GeneralInternalError` (500).
public final class HTTPServer: Sendable {
  /// Answers one request.
  public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPReply

  /// Connections past the limit that are still read and answered 429; beyond these the kernel's backlog holds them.
  static let answeredOverflow = 16

  public let configuration: HTTPServerConfiguration
  /// The address actually bound: the real port when port 0 was asked for.
  public let boundAddress: ListenAddress
  private let daemon: DaemonHandle
  private let context: ServerContext

  /// Binds and starts serving at once.
  public init(
    configuration: HTTPServerConfiguration, handler: @escaping Handler, log: @escaping @Sendable (RequestLogEntry) -> Void = { _ in },
    now: @escaping @Sendable () -> Date = Date.init,
    monotonicNanoseconds: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
  ) throws(HTTPServerError) {
    let context = ServerContext(
      handler: handler, log: log, now: now, monotonicNanoseconds: monotonicNanoseconds,
      maximumBodySize: configuration.maximumBodySize, connectionLimit: configuration.connectionLimit)
    var flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue)
    switch configuration.threading {
    case .internalThread: flags |= UInt32(MHD_USE_AUTO.rawValue)
    case .threadPerConnection: flags |= UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue) | UInt32(MHD_USE_ITC.rawValue)
    }
    if configuration.address.isIPv6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
    let tls = configuration.tls.map(CStrings.init)
    if tls != nil {
      guard sf_MHD_supports_tls() != 0 else { throw .tlsUnsupported }
      flags |= UInt32(MHD_USE_TLS.rawValue)
    }
    let opaque = Unmanaged.passUnretained(context).toOpaque()
    let started = configuration.address.withSocketAddress { address in
      sf_MHD_start_daemon(
        flags, address, MHDCallbacks.access, opaque, MHDCallbacks.completed, nil, MHDCallbacks.connection, opaque,
        configuration.connectionMemoryLimit, UInt32(clamping: configuration.connectionLimit + Self.answeredOverflow),
        UInt32(clamping: configuration.connectionTimeout), tls?.key, tls?.certificate)
    }
    guard let started else { throw tls == nil ? .cannotListen(configuration.address) : .cannotStartTLS(configuration.address) }
    self.configuration = configuration
    self.context = context
    self.daemon = DaemonHandle(started, tls: tls)
    var bound = configuration.address
    bound.port = sf_MHD_bound_port(started)
    self.boundAddress = bound
  }

  /// Stops accepting, closes every connection and waits for running handlers; safe to call twice.
  public func stop() { daemon.stop() }

  deinit { daemon.stop() }
}

/// The daemon pointer, stopped exactly once.
private final class DaemonHandle: @unchecked Sendable {
  // @unchecked: `pointer` is only read or cleared under `lock`.
  private var pointer: OpaquePointer?
  private let lock = NSLock()
  /// The PEM texts handed to libmicrohttpd, kept until the daemon is gone.
  private let tls: CStrings?

  init(_ pointer: OpaquePointer, tls: CStrings?) {
    self.pointer = pointer
    self.tls = tls
  }

  func stop() {
    lock.lock()
    let daemon = pointer
    pointer = nil
    lock.unlock()
    if let daemon { MHD_stop_daemon(daemon) }
  }
}

/// TLS credentials as NUL-terminated C strings, freed with their owner.
private final class CStrings: @unchecked Sendable {
  // @unchecked: the pointers are written once, read by libmicrohttpd only, and freed in deinit.
  let key: UnsafeMutablePointer<CChar>?
  let certificate: UnsafeMutablePointer<CChar>?

  init(_ credentials: TLSCredentials) {
    key = strdup(String(decoding: credentials.keyPEM, as: UTF8.self))
    certificate = strdup(String(decoding: credentials.certificatePEM, as: UTF8.self))
  }

  deinit {
    // The key leaves no copy behind in freed memory.
    if let key { memset(key, 0, strlen(key)) }
    free(key)
    free(certificate)
  }
}
