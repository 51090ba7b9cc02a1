import AppStoreServerAPI
import Foundation
import StorefrontProcessTestSupport
import SandboxSigning
import StoreEngine
import XCTest

@testable import StoreServer

final class APIGatewayTests: XCTestCase {
  private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-\(UUID().uuidString)")
  private let now = 1_767_225_600.0

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func gateway(_ endpoints: @escaping APIGateway.Endpoints) throws -> (APIGateway, String) {
    let store = APIKeyStore(directory: directory)
    var generator = SplitMix64(seed: 9)
    let created = try store.create(name: nil, now: Date(timeIntervalSince1970: now), generator: &generator)
    let key = try PrivateKey(pem: Data(contentsOf: created.privateKeyFile))
    let token = try TestToken(keyID: created.key.keyID, issuerID: created.key.issuerID, expires: now + 300).signed(by: key.signES256)
    let now = now
    let verifier = BearerTokenVerifier(
      keys: APIKeyRing(store: store), bundleIDs: ["com.example.storefront"], now: { Date(timeIntervalSince1970: now) })
    return (APIGateway(verifier: verifier, requestID: { "REQ1" }, endpoints: endpoints), token)
  }

  func testARefusedTokenGetsApplesPlainText401AndNeverReachesTheEndpoints() throws {
    let called = Locked(false)
    let (gateway, _) = try gateway { _ in
      called.withLock { $0 = true }
      return APIResponse(status: 200)
    }
    let reply = try gateway.reply(to: HTTPRequest(method: "GET", path: "/inApps/v1/transactions/1", headers: ["authorization": "Bearer x.y.z"]))
    XCTAssertEqual(reply.response.status, 401)
    XCTAssertEqual(reply.response.contentType, "text/plain")
    XCTAssertEqual(String(decoding: reply.response.body, as: UTF8.self), "Unauthenticated\n\nRequest ID: REQ1.0.0\n")
    XCTAssertNil(reply.keyID)
    XCTAssertFalse(called.withLock { $0 })
  }

  func testAGoodTokenReachesTheEndpointsWithItsKeyID() throws {
    let seen = Locked([APIRequest]())
    let (gateway, token) = try gateway { request in
      seen.withLock { $0.append(request) }
      return APIResponse(status: 404, body: Data(#"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#.utf8))
    }
    let reply = try gateway.reply(to: HTTPRequest(
      method: "GET", path: "/inApps/v2/history/1", query: [QueryItem(name: "sort", value: "DESCENDING")],
      headers: ["authorization": "Bearer \(token)"]))
    XCTAssertEqual(reply.response.status, 404)
    let request = try XCTUnwrap(seen.withLock { $0.first })
    XCTAssertEqual(reply.keyID, request.keyID)
    XCTAssertEqual(request, APIRequest(method: "GET", path: "/inApps/v2/history/1", query: [(name: "sort", value: "DESCENDING")], keyID: reply.keyID))
  }

  func testAThrowingEndpointBecomesTheServers500() throws {
    struct Broken: Error {}
    let (gateway, token) = try gateway { _ in throw Broken() }
    let server = try HTTPServer(
      configuration: HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0)), handler: gateway.reply(to:))
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("GET /inApps/v1/transactions/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
    let response = try connection.receive()
    XCTAssertEqual(response.status, 500)
    XCTAssertEqual(response.text, #"{"errorCode":5000000,"errorMessage":"An unknown error occurred."}"#)
  }
}
