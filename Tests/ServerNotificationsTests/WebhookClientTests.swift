import Foundation
import StorefrontProcessTestSupport
import XCTest

@testable import ServerNotifications

/// The libcurl client against a real receiver: each failure the receiver can make, in Apple's names.
final class WebhookClientTests: XCTestCase {
  private let body = Data(#"{"signedPayload":"x.y.z"}"#.utf8)

  func testSuccessSendsJSONAndStatusesAreClassified() throws {
    let receiver = try WebhookReceiver(behavior: .status(200))
    defer { receiver.stop() }
    let client = WebhookClient()
    let outcome = client.post(body, to: receiver.url)
    XCTAssertEqual(outcome.result, .success)
    XCTAssertEqual(outcome.httpStatus, 200)
    let request = try XCTUnwrap(receiver.requests.first)
    XCTAssertEqual(request.method, "POST")
    XCTAssertEqual(request.path, "/hook")
    XCTAssertEqual(request.headers["content-type"], "application/json")
    XCTAssertEqual(request.body, body)
    for (status, expected) in [(206, "SUCCESS"), (207, "UNSUCCESSFUL_HTTP_RESPONSE_CODE"), (500, "UNSUCCESSFUL_HTTP_RESPONSE_CODE"),
      (404, "UNSUCCESSFUL_HTTP_RESPONSE_CODE"), (302, "UNSUCCESSFUL_HTTP_RESPONSE_CODE")] {
      receiver.setBehavior(.status(status))
      let answered = client.post(body, to: receiver.url)
      XCTAssertEqual(answered.result.rawValue, expected, "\(status)")
      XCTAssertEqual(answered.httpStatus, status)
    }
    XCTAssertEqual(WebhookClient.result(ofStatus: 301, redirectingTo: "http://a/b", from: "http://a/b"), .circularRedirect)
    XCTAssertEqual(receiver.requests.count, 6, "a redirect is not followed")
  }

  func testHangCloseAndRefusalAreTimedOutPrematureCloseAndNoResponse() throws {
    let receiver = try WebhookReceiver(behavior: .hang)
    defer { receiver.stop() }
    let client = WebhookClient(configuration: .init(connectTimeout: .milliseconds(500), totalTimeout: .milliseconds(300)))
    let hung = client.post(body, to: receiver.url)
    XCTAssertEqual(hung.result, .timedOut)
    XCTAssertNil(hung.httpStatus)
    XCTAssertGreaterThanOrEqual(hung.milliseconds, 250)
    receiver.setBehavior(.closeEarly)
    XCTAssertEqual(client.post(body, to: receiver.url).result, .prematureClose)
    let closed = try WebhookReceiver()
    let port = closed.port
    closed.stop()
    XCTAssertEqual(client.post(body, to: "http://127.0.0.1:\(port)/hook").result, .noResponse)
    receiver.setBehavior(.rawAtOnce("SPEAKING NO HTTP\r\n\r\n"))
    // The server answers at once here: roomy time-outs, so a slow machine (a sanitizer) cannot turn
    // the answer into a time-out.
    let answered = WebhookClient(configuration: .init(connectTimeout: .seconds(10), totalTimeout: .seconds(10)))
    XCTAssertEqual(answered.post(body, to: "https://127.0.0.1:\(receiver.port)/hook").result, .tlsIssue, "TLS to a plain-text server")
    XCTAssertEqual(answered.post(body, to: "http://127.0.0.1:\(receiver.port)/hook").result, .invalidResponse)
  }
}
