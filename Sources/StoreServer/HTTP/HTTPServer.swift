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
    let opaque = Unmanaged.passUnretained(context).toOpaque()
    let started = configuration.address.withSocketAddress { address in
      sf_MHD_start_daemon(
        flags, address, MHDCallbacks.access, opaque, MHDCallbacks.completed, nil, MHDCallbacks.connection, opaque,
        configuration.connectionMemoryLimit, UInt32(clamping: configuration.connectionLimit + Self.answeredOverflow),
        UInt32(clamping: configuration.connectionTimeout))
    }
    guard let started else { throw .cannotListen(configuration.address) }
    self.configuration = configuration
    self.context = context
    self.daemon = DaemonHandle(started)
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

  init(_ pointer: OpaquePointer) { self.pointer = pointer }

  func stop() {
    lock.lock()
    let daemon = pointer
    pointer = nil
    lock.unlock()
    if let daemon { MHD_stop_daemon(daemon) }
  }
}
