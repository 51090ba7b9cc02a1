import CMicroHTTPD
import Foundation

/// The library's ceiling for `serve_info_vs_mhd_ceiling`: libmicrohttpd in the same mode as
/// `StoreServer` (internal polling thread, a thread per connection) answering every request at once
/// with fixed bytes (a real Get Transaction Info answer) and no work of its own, on 127.0.0.1:0.
final class MinimalResponder {
  let port: UInt16
  private let daemon: OpaquePointer
  private let body: UnsafeMutableRawBufferPointer
  /// The ``Payload`` the C callback reads (a pointer to it is the daemon's handler context).
  private let context: UnsafeMutableRawPointer
  private let counter = AnswerCounter()

  /// How many requests it has answered so far.
  var answered: Int { counter.value }

  init(body bytes: Data) throws {
    body = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
    bytes.copyBytes(to: body)
    let size = bytes.count
    let context = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Payload>.stride, alignment: MemoryLayout<Payload>.alignment)
    context.initializeMemory(
      as: Payload.self, repeating: Payload(bytes: UnsafeRawPointer(body.baseAddress), count: size, counter: Unmanaged.passUnretained(counter)),
      count: 1)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let flags =
      UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue) | UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue) | UInt32(MHD_USE_ITC.rawValue)
    let started = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        sf_MHD_start_daemon(flags, $0, Self.access, context, nil, nil, nil, nil, 64 << 10, 80, 30, nil, nil)
      }
    }
    guard let started else {
      context.deallocate()
      body.deallocate()
      throw BenchError.failed("libmicrohttpd would not start the minimal responder on 127.0.0.1:0")
    }
    daemon = started
    port = sf_MHD_bound_port(started)
    self.context = context
  }

  /// Stops the daemon (waiting for its threads) and frees the body.
  func stop() {
    MHD_stop_daemon(daemon)
    context.deallocate()
    body.deallocate()
  }

  private struct Payload {
    var bytes: UnsafeRawPointer?
    var count: Int
    /// Kept alive by the responder, which outlives its daemon.
    var counter: Unmanaged<AnswerCounter>
  }

  /// Counts answers across the daemon's connection threads.
  private final class AnswerCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
  }

  private static let access: MHD_AccessHandlerCallback = { cls, connection, _, _, _, _, uploadDataSize, _ in
    guard let cls, let connection else { return .NO }
    // A GET has no body: answer on the first call, as soon as the headers are in.
    if let uploadDataSize, uploadDataSize.pointee > 0 {
      uploadDataSize.pointee = 0
      return .YES
    }
    let payload = cls.load(as: Payload.self)
    guard let response = MHD_create_response_from_buffer(payload.count, UnsafeMutableRawPointer(mutating: payload.bytes), .RESPMEM_PERSISTENT)
    else { return .NO }
    _ = MHD_add_response_header(response, "Content-Type", "application/json")
    let queued = MHD_queue_response(connection, 200, response)
    MHD_destroy_response(response)
    payload.counter.takeUnretainedValue().increment()
    return queued
  }
}
