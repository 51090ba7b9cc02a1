import AppStoreServerAPI
import Foundation
import StorefrontProcessTestSupport
import StoreEngine
import XCTest

@testable import StoreServer

final class HTTPServerTests: XCTestCase {
  private let seen = Locked([HTTPRequest]())
  private let logged = Locked([RequestLogEntry]())

  private func start(
    _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0)),
    handler: HTTPServer.Handler? = nil
  ) throws -> HTTPServer {
    let seen = seen
    let echo: HTTPServer.Handler = { request in
      seen.withLock { $0.append(request) }
      return HTTPReply(APIResponse(status: 200, body: Data("{\"path\":\"\(request.path)\"}".utf8)), keyID: "KEY0000001")
    }
    let logged = logged
    let ticks = Locked(UInt64(0))
    return try HTTPServer(
      configuration: configuration, handler: handler ?? echo, log: { entry in logged.withLock { $0.append(entry) } },
      now: { Date(timeIntervalSince1970: 1_767_225_600) },
      monotonicNanoseconds: { ticks.withLock { $0 += 1_500_000; return $0 } })
  }

  func testPortZeroReportsTheRealPortAndAnswersARequest() throws {
    let server = try start()
    XCTAssertNotEqual(server.boundAddress.port, 0)
    XCTAssertEqual(server.boundAddress.host, "127.0.0.1")
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("GET /inApps/v1/transactions/42?b=2&a=1&a=3&flag HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer abc\r\n\r\n")
    let response = try connection.receive()
    XCTAssertEqual(response.status, 200)
    XCTAssertEqual(response.headers["content-type"], "application/json")
    XCTAssertEqual(response.text, "{\"path\":\"/inApps/v1/transactions/42\"}")
    let request = try XCTUnwrap(seen.withLock { $0.first })
    XCTAssertEqual(request.method, "GET")
    XCTAssertEqual(request.query.map(\.name), ["b", "a", "a", "flag"])
    XCTAssertEqual(request.query.map(\.value), ["2", "1", "3", ""])
    XCTAssertEqual(request.header("authorization"), "Bearer abc")
  }

  func testEachRequestIsLoggedWithStatusLatencyAndKey() throws {
    let server = try start()
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try connection.receive()
    let entry = try XCTUnwrap(logged.withLock { $0.first })
    XCTAssertEqual(entry, RequestLogEntry(
      date: Date(timeIntervalSince1970: 1_767_225_600), method: "GET", path: "/a", status: 200, latencyNanoseconds: 1_500_000,
      keyID: "KEY0000001"))
    XCTAssertEqual(entry.line, "2026-01-01T00:00:00.000Z GET /a 200 1.50ms key=KEY0000001")
    XCTAssertEqual(
      entry.jsonLine, #"{"keyId":"KEY0000001","latencyMs":1.5,"method":"GET","path":"/a","status":200,"time":"2026-01-01T00:00:00.000Z"}"#)
  }

  func testPostBodyReachesTheHandler() throws {
    let bodies = Locked([Data]())
    let server = try start(handler: { request in
      bodies.withLock { $0.append(request.body) }
      return HTTPReply(APIResponse(status: 202))
    })
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    let body = #"{"customerConsented":true}"#
    try connection.send("PUT /inApps/v2/transactions/consumption/1 HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    XCTAssertEqual(try connection.receive().status, 202)
    XCTAssertEqual(bodies.withLock { $0 }, [Data(body.utf8)])
  }

  func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
    let server = try start()
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    for path in ["/one", "/two", "/three"] {
      try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
      XCTAssertEqual(try connection.receive().text, "{\"path\":\"\(path)\"}")
    }
    XCTAssertEqual(seen.withLock { $0.map(\.path) }, ["/one", "/two", "/three"])
  }

  func testAThrowingHandlerAnswersApplesGeneralInternalError() throws {
    struct Boom: Error {}
    let server = try start(handler: { _ in throw Boom() })
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
    let response = try connection.receive()
    XCTAssertEqual(response.status, 500)
    XCTAssertEqual(response.headers["content-type"], "application/json")
    XCTAssertEqual(response.text, #"{"errorCode":5000000,"errorMessage":"An unknown error occurred."}"#)
  }

  func testUnknownMethodReachesTheHandler() throws {
    let server = try start()
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n")
    XCTAssertEqual(try connection.receive().status, 200)
    XCTAssertEqual(seen.withLock { $0.map(\.method) }, ["BREW"])
  }

  func testDeclaredOversizedBodyGets413WithoutReachingTheHandler() throws {
    let server = try start(HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0), maximumBodySize: 100))
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n")
    let response = try connection.receive()
    XCTAssertEqual(response.status, 413)
    XCTAssertEqual(response.text, #"{"errorCode":4000000,"errorMessage":"Request body too large."}"#)
    XCTAssertTrue(seen.withLock { $0.isEmpty })
  }

  func testChunkedOversizedBodyGets413() throws {
    let server = try start(HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0), maximumBodySize: 100))
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    let chunk = String(repeating: "a", count: 80)
    try connection.send("PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n50\r\n\(chunk)\r\n50\r\n\(chunk)\r\n0\r\n\r\n")
    XCTAssertEqual(try connection.receive().status, 413)
    XCTAssertTrue(seen.withLock { $0.isEmpty })
  }

  func testBodyAtTheLimitIsAccepted() throws {
    let server = try start(HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0), maximumBodySize: 100))
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + String(repeating: "b", count: 100))
    XCTAssertEqual(try connection.receive().status, 200)
    XCTAssertEqual(seen.withLock { $0.first?.body.count }, 100)
  }

  func testHugeHeadersGet431AndTheServerKeepsServing() throws {
    let server = try start(HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0), connectionMemoryLimit: 16 << 10))
    let big = try RawHTTPConnection(port: server.boundAddress.port)
    try big.send("GET /x HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "h", count: 32 << 10))\r\n\r\n")
    XCTAssertEqual(try big.receive().status, 431)
    XCTAssertTrue(seen.withLock { $0.isEmpty })
    let next = try RawHTTPConnection(port: server.boundAddress.port)
    try next.send("GET /y HTTP/1.1\r\nHost: x\r\n\r\n")
    XCTAssertEqual(try next.receive().status, 200)
  }

  func testConnectionsBeyondTheLimitGetApples429AndServingResumes() throws {
    let server = try start(HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0), connectionLimit: 2))
    let first = try RawHTTPConnection(port: server.boundAddress.port)
    let second = try RawHTTPConnection(port: server.boundAddress.port)
    for connection in [first, second] {
      try connection.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
      XCTAssertEqual(try connection.receive().status, 200)
    }
    let third = try RawHTTPConnection(port: server.boundAddress.port)
    try third.send("GET /refused HTTP/1.1\r\nHost: x\r\n\r\n")
    let refused = try third.receive()
    XCTAssertEqual(refused.status, 429)
    XCTAssertEqual(refused.text, #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#)
    XCTAssertTrue(try third.closesWithoutAnswer())
    try first.send("GET /held HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    _ = try first.receive()
    XCTAssertTrue(try first.closesWithoutAnswer())
    // libmicrohttpd counts a connection closed only after the client has seen it close, so a new one
    // may still be refused for a moment: bounded retries (each answered at once), no sleeping.
    var status = 0
    for _ in 0..<200 where status != 200 {
      let fourth = try RawHTTPConnection(port: server.boundAddress.port)
      try fourth.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
      status = try fourth.receive().status
      XCTAssertTrue(status == 200 || status == 429, "\(status)")
    }
    XCTAssertEqual(status, 200)
    XCTAssertFalse(seen.withLock { $0.map(\.path) }.contains("/refused"))
  }

  func testASlowClientIsDisconnectedAfterTheTimeout() throws {
    let server = try start(HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0), connectionTimeout: 1))
    let slow = try RawHTTPConnection(port: server.boundAddress.port)
    try slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
    XCTAssertTrue(try slow.closesWithoutAnswer(timeout: 5))
    XCTAssertTrue(seen.withLock { $0.isEmpty })
  }

  func testStopClosesTheListenerAndIdleConnections() throws {
    let server = try start()
    let port = server.boundAddress.port
    let idle = try RawHTTPConnection(port: port)
    try idle.send("GET /before HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try idle.receive()
    server.stop()
    server.stop()
    XCTAssertTrue(try idle.closesWithoutAnswer())
    XCTAssertThrowsError(try RawHTTPConnection(port: port))
  }

  func testInternalThreadModeServesToo() throws {
    let server = try start(HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0), threading: .internalThread))
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("GET /internal HTTP/1.1\r\nHost: x\r\n\r\n")
    XCTAssertEqual(try connection.receive().status, 200)
  }

  func testAPortInUseFailsToStart() throws {
    let server = try start()
    XCTAssertThrowsError(try start(HTTPServerConfiguration(address: server.boundAddress))) { error in
      XCTAssertEqual(error as? HTTPServerError, .cannotListen(server.boundAddress))
    }
  }

  /// libmicrohttpd percent-decodes the path and the query before the handler sees them.
  func testPathAndQueryArriveDecoded() throws {
    let server = try start()
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("GET /a%20b?revision=x%2By&name=%41 HTTP/1.1\r\nHost: x\r\n\r\n")
    XCTAssertEqual(try connection.receive().status, 200)
    let request = try XCTUnwrap(seen.withLock { $0.first })
    XCTAssertEqual(request.path, "/a b")
    XCTAssertEqual(request.query, [QueryItem(name: "revision", value: "x+y"), QueryItem(name: "name", value: "A")])
  }
}
