import Foundation
import ServerNotifications
import SimulatedApp
import StoreEngine
import StorefrontProcessTestSupport
import StorefrontTestSupport
import XCTest

@testable import StorefrontCLI

/// The simulated app's libcurl client against a real HTTP server on 127.0.0.1:0: what each kind of
/// answer becomes, and what the app then does with it.
final class AppServerClientTests: XCTestCase {
  private func request(to url: String) throws -> AppServerRequest {
    let store = try TestStore()
    var request = AppServerRequest(transaction: try store.buy(FixtureCatalog.coins), url: url)
    _ = request.attachReceipt { _ in Data([0xDE, 0xAD]) }
    return request
  }

  private func finishes(_ answer: AppServerAnswer) throws -> Bool {
    var finisher = AppFinisher(mode: .afterServer(url: answer.request.url))
    let store = try TestStore()
    _ = finisher.actions(for: .transactionsUpdated([try store.buy(FixtureCatalog.coins)]))
    return !finisher.answered(answer).isEmpty
  }

  func testA2xxFinishesAndTheBodyArrivesAsSent() throws {
    let receiver = try WebhookReceiver(behavior: .status(201))
    defer { receiver.stop() }
    let request = try request(to: receiver.url)
    let answer = AppServerClient().call(request)
    XCTAssertEqual(answer.status, 201)
    XCTAssertNil(answer.error)
    XCTAssertTrue(try finishes(answer))
    let received = try XCTUnwrap(receiver.requests.first)
    XCTAssertEqual(received.body, request.body)
    XCTAssertEqual(received.headers["user-agent"], "Storefront-Simulated-App/1.0")
    XCTAssertTrue(received.text.contains(#""receipt":"3q0=""#), received.text)
  }

  func testA500LeavesItUnfinished() throws {
    let receiver = try WebhookReceiver(behavior: .status(500))
    defer { receiver.stop() }
    let answer = AppServerClient().call(try request(to: receiver.url))
    XCTAssertEqual(answer.status, 500)
    XCTAssertFalse(try finishes(answer))
    XCTAssertNil(answer.error, "an answer is not an error")
  }

  func testATimeOutIsBoundedAndLeavesItUnfinished() throws {
    let receiver = try WebhookReceiver(behavior: .hang)
    defer { receiver.stop() }
    let client = AppServerClient(configuration: WebhookClient.Configuration(connectTimeout: .seconds(1), totalTimeout: .milliseconds(300)))
    let answer = client.call(try request(to: receiver.url))
    XCTAssertNil(answer.status)
    XCTAssertNotNil(answer.error)
    XCTAssertLessThan(answer.milliseconds, 5_000, "the client's time-out bounds the call")
    XCTAssertFalse(try finishes(answer))
  }

  func testARefusedConnectionLeavesItUnfinished() throws {
    // A port that was just free: bound, read, closed.
    let receiver = try WebhookReceiver()
    let url = receiver.url
    receiver.stop()
    let answer = AppServerClient().call(try request(to: url))
    XCTAssertNil(answer.status)
    XCTAssertTrue(answer.error?.contains("connect") == true, answer.error ?? "no error")
    XCTAssertFalse(try finishes(answer))
  }
}
