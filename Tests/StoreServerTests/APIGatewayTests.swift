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

  private func gateway(recordsDetails: Bool = false, _ endpoints: @escaping APIGateway.Endpoints) throws -> (APIGateway, String) {
    let store = APIKeyStore(directory: directory)
    var generator = SplitMix64(seed: 9)
    let created = try store.create(name: nil, now: Date(timeIntervalSince1970: now), generator: &generator)
    let key = try PrivateKey(pem: Data(contentsOf: created.privateKeyFile))
    let token = try TestToken(keyID: created.key.keyID, issuerID: created.key.issuerID, expires: now + 300).signed(by: key.signES256)
    let now = now
    let verifier = BearerTokenVerifier(
      keys: APIKeyRing(store: store), bundleIDs: ["com.example.storefront"], now: { Date(timeIntervalSince1970: now) })
    return (APIGateway(verifier: verifier, requestID: { "REQ1" }, recordsDetails: recordsDetails, endpoints: endpoints), token)
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

  func testDetailsAreRecordedOnlyWhenAskedAndHoldTheClaimsNotTheToken() throws {
    let body = Data(#"{"signedTransactionInfo":"a.b.c"}"#.utf8)
    let request = { (token: String?) in
      HTTPRequest(
        method: "GET", path: "/inApps/v1/transactions/1", query: [QueryItem(name: "x", value: "1")],
        headers: token.map { ["authorization": "Bearer \($0)"] } ?? [:])
    }
    let (plain, plainToken) = try gateway { _ in APIResponse(status: 200, body: body) }
    XCTAssertNil(try plain.reply(to: request(plainToken)).details, "serve pays nothing for details")

    let (recording, token) = try gateway(recordsDetails: true) { _ in APIResponse(status: 200, body: body) }
    let reply = try recording.reply(to: request(token))
    let details = try XCTUnwrap(reply.details)
    XCTAssertEqual(details.body, body)
    XCTAssertEqual(details.contentType, "application/json")
    XCTAssertEqual(details.query, [QueryItem(name: "x", value: "1")])
    XCTAssertNil(details.rejection)
    let summary = try XCTUnwrap(details.token)
    XCTAssertEqual(summary.algorithm, "ES256")
    XCTAssertEqual(summary.keyID, reply.keyID)
    XCTAssertEqual(summary.type, "JWT")
    XCTAssertEqual(summary.audience, ["appstoreconnect-v1"])
    XCTAssertEqual(summary.bundleID, "com.example.storefront")
    XCTAssertEqual(summary.expires, now + 300)
    XCTAssertNil(summary.issuedAt)
    XCTAssertFalse(String(describing: details).contains(String(token.split(separator: ".")[2])), "the signature is kept")

    let missing = try XCTUnwrap(try recording.reply(to: request(nil)).details)
    XCTAssertEqual(missing.rejection, "no Authorization header")
    XCTAssertNil(missing.token)
    XCTAssertEqual(String(decoding: missing.body, as: UTF8.self), "Unauthenticated\n\nRequest ID: REQ1.0.0\n")
    let parts = token.split(separator: ".")
    let forged = try XCTUnwrap(try recording.reply(to: request("\(parts[0]).\(parts[1]).AAAA")).details)
    XCTAssertEqual(forged.rejection, "the signature does not verify with the key")
    XCTAssertEqual(forged.token?.keyID, reply.keyID, "a refused token that decodes is still shown")
  }

  func testTheServersLogEntryCarriesTheDetailsButItsLinesDoNot() throws {
    let (gateway, token) = try gateway(recordsDetails: true) { _ in APIResponse(status: 200, body: Data("{}".utf8)) }
    let entries = Locked([RequestLogEntry]())
    let logged = DispatchSemaphore(value: 0)
    let server = try HTTPServer(
      configuration: HTTPServerConfiguration(address: ListenAddress(host: "127.0.0.1", port: 0)), handler: gateway.reply(to:),
      log: { entry in
        entries.withLock { $0.append(entry) }
        logged.signal()
      })
    defer { server.stop() }
    let connection = try RawHTTPConnection(port: server.boundAddress.port)
    try connection.send("GET /inApps/v1/transactions/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
    XCTAssertEqual(try connection.receive().status, 200)
    XCTAssertEqual(logged.wait(timeout: .now() + 5), .success, "the request was logged")
    let entry = try XCTUnwrap(entries.withLock { $0.first })
    XCTAssertEqual(entry.details?.token?.keyID, entry.keyID)
    XCTAssertEqual(entry.details?.body, Data("{}".utf8))
    for line in [entry.line, entry.jsonLine] {
      XCTAssertFalse(line.contains(token.split(separator: ".")[1]), "a log line shows the token: \(line)")
      XCTAssertFalse(line.contains("appstoreconnect-v1"), "a log line shows the claims: \(line)")
    }
  }
}
