import CMicroHTTPD
import Foundation

/// libmicrohttpd's C callbacks: the only code that touches connections. Swift objects cross as
/// `Unmanaged` pointers: the ``ServerContext`` unretained (the server owns it), each ``RequestState``
/// retained from the first access call until `completed` releases it.
enum MHDCallbacks {
  static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, requestContext in
    guard let cls, let connection, let requestContext, let uploadDataSize else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let existing = requestContext.pointee else {
      // First call: headers are in, no body yet. Refuse a declared oversized body before reading it.
      let state = RequestState(arrival: context.now(), started: context.monotonicNanoseconds())
      requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
      if sf_MHD_socket_context(connection) != nil {
        return answer(connection, state: state, method: method, url: url, reply: .rateLimited, context: context, close: true)
      }
      if let length = lookup(connection, "Content-Length").flatMap(Int.init), length > context.maximumBodySize {
        return answer(connection, state: state, method: method, url: url, reply: .payloadTooLarge, context: context)
      }
      return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
    if uploadDataSize.pointee > 0 {
      if let uploadData, !state.tooLarge {
        if state.body.count + uploadDataSize.pointee > context.maximumBodySize {
          state.tooLarge = true
          state.body = Data()
        } else {
          uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadDataSize.pointee) { bytes in
            state.body.append(bytes, count: uploadDataSize.pointee)
          }
        }
      }
      uploadDataSize.pointee = 0
      return .YES
    }
    if state.tooLarge {
      return answer(connection, state: state, method: method, url: url, reply: .payloadTooLarge, context: context)
    }
    let request = HTTPRequest(
      method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
      query: values(connection, kind: .GET_ARGUMENT_KIND).map { QueryItem(name: $0.0, value: $0.1) },
      headers: Dictionary(values(connection, kind: .HEADER_KIND).map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { _, last in last }),
      body: state.body)
    return answer(connection, state: state, method: method, url: url, reply: context.reply(to: request), context: context)
  }

  /// Counts connections; one opened past the limit is marked (a non-nil socket context) to be refused.
  static let connection: MHD_NotifyConnectionCallback = { cls, _, socketContext, code in
    guard let cls, let socketContext else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
      let open = context.openConnections.withLock { count in
        count += 1
        return count
      }
      socketContext.pointee = open > context.connectionLimit ? UnsafeMutableRawPointer(bitPattern: 1) : nil
    } else {
      context.openConnections.withLock { $0 -= 1 }
      socketContext.pointee = nil
    }
  }

  static let completed: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let state = requestContext.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(state).release()
    requestContext.pointee = nil
  }

  /// Queues `reply` and logs the request.
  private static func answer(
    _ connection: OpaquePointer, state: RequestState, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, reply: HTTPReply,
    context: ServerContext, close: Bool = false
  ) -> MHD_Result {
    var body = reply.response.body
    let response = body.withUnsafeMutableBytes { raw in
      MHD_create_response_from_buffer(raw.count, raw.baseAddress, .RESPMEM_MUST_COPY)
    }
    guard let response else { return .NO }
    defer { MHD_destroy_response(response) }
    _ = MHD_add_response_header(response, "Content-Type", reply.response.contentType)
    if close { _ = MHD_add_response_header(response, "Connection", "close") }
    let queued = MHD_queue_response(connection, UInt32(clamping: reply.response.status), response)
    context.log(
      RequestLogEntry(
        date: state.arrival, method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
        status: reply.response.status, latencyNanoseconds: context.monotonicNanoseconds() &- state.started, keyID: reply.keyID,
        details: reply.details))
    return queued
  }

  private static func lookup(_ connection: OpaquePointer, _ header: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, header).map { String(cString: $0) }
  }

  /// Every value of `kind` in arrival order; a query name without `=` gets an empty value.
  private static func values(_ connection: OpaquePointer, kind: MHD_ValueKind) -> [(String, String)] {
    let collector = PairCollector()
    let opaque = Unmanaged.passUnretained(collector).toOpaque()
    _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
      guard let cls, let key else { return .YES }
      let collector = Unmanaged<PairCollector>.fromOpaque(cls).takeUnretainedValue()
      collector.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
      return .YES
    }, opaque)
    return withExtendedLifetime(collector) { collector.pairs }
  }
}

/// Gathers the pairs of `MHD_get_connection_values`.
private final class PairCollector {
  var pairs: [(String, String)] = []
}
