import Foundation
import StoreEngine

/// What the C callbacks need, passed to libmicrohttpd as an unretained pointer that ``HTTPServer`` keeps alive.
final class ServerContext: Sendable {
  let handler: HTTPServer.Handler
  let log: @Sendable (RequestLogEntry) -> Void
  let now: @Sendable () -> Date
  let monotonicNanoseconds: @Sendable () -> UInt64
  let maximumBodySize: Int
  let connectionLimit: Int
  /// Connections open now, counted by libmicrohttpd's connection callback.
  let openConnections = Locked(0)

  init(
    handler: @escaping HTTPServer.Handler, log: @escaping @Sendable (RequestLogEntry) -> Void, now: @escaping @Sendable () -> Date,
    monotonicNanoseconds: @escaping @Sendable () -> UInt64, maximumBodySize: Int, connectionLimit: Int
  ) {
    self.connectionLimit = connectionLimit
    self.handler = handler
    self.log = log
    self.now = now
    self.monotonicNanoseconds = monotonicNanoseconds
    self.maximumBodySize = maximumBodySize
  }

  /// Runs the handler; a throw becomes Apple's 500.
  func reply(to request: HTTPRequest) -> HTTPReply {
    do {
      return try handler(request)
    } catch {
      return .internalError
    }
  }
}

/// One request in flight: its arrival and the body read so far. Lives from the first callback to the completion one.
final class RequestState {
  let arrival: Date
  let started: UInt64
  var body = Data()
  /// The body passed the limit: the rest is read and dropped, and the answer is 413.
  var tooLarge = false

  init(arrival: Date, started: UInt64) {
    self.arrival = arrival
    self.started = started
  }
}
