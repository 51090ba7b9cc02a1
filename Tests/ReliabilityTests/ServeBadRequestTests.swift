import Foundation
import SandboxSigning
import StorefrontProcessTestSupport
import XCTest

/// Bad requests to the real `storefront serve`: every token Apple would refuse gets Apple's
/// plain-text 401, oversized bodies 413 (JSON), oversized headers libmicrohttpd's 431, and after each the server still
/// answers a good request.
final class ServeBadRequestTests: XCTestCase {
  private struct CreatedKey: Decodable {
    var keyId: String
    var issuerId: String
    var privateKeyFile: String
  }

  private struct Row {
    var name: String
    var request: String
    var status: Int
  }

  private func createKey(_ dataDirectory: URL) throws -> (CreatedKey, PrivateKey) {
    let result = try StorefrontProcess.run(["keys", "create", "--json", "--data-dir", dataDirectory.path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let created = try JSONDecoder().decode(CreatedKey.self, from: result.stdoutData)
    return (created, try PrivateKey(pem: Data(contentsOf: URL(fileURLWithPath: created.privateKeyFile))))
  }

  private func address(fromFIFO fifo: String) throws -> UInt16 {
    let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(descriptor) }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard descriptor >= 0, poll(&poller, 1, 60_000) == 1 else { throw Failure("serve did not write its ready file") }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = read(descriptor, &buffer, buffer.count)
    let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let port = text.split(separator: ":").last.flatMap({ UInt16($0) }) else { throw Failure("bad ready file '\(text)'") }
    return port
  }

  func testEveryBadRequestGetsApplesAnswerAndTheServerKeepsServing() throws {
    let scratch = try Scratch.directory(self, "serve")
    let data = scratch.appendingPathComponent("data")
    let (good, goodKey) = try createKey(data)
    let (revoked, revokedKey) = try createKey(data)
    let (foreign, foreignKey) = try createKey(scratch.appendingPathComponent("other"))
    XCTAssertEqual(try StorefrontProcess.run(["keys", "revoke", revoked.keyId, "--data-dir", data.path]).status, 0)

    let now = Date().timeIntervalSince1970
    func token(_ edit: (inout TestToken) -> Void = { _ in }, key: PrivateKey? = nil, base: CreatedKey? = nil) throws -> String {
      let owner = base ?? good
      var token = TestToken(keyID: owner.keyId, issuerID: owner.issuerId, expires: now + 300)
      edit(&token)
      return try token.signed(by: (key ?? goodKey).signES256)
    }
    func get(_ authorization: String?, method: String = "GET", path: String = "/inApps/v1/transactions/2000000000000001") -> String {
      "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (authorization.map { "Authorization: \($0)\r\n" } ?? "") + "\r\n"
    }
    let goodRequest = get("Bearer " + (try token()))
    let halfToken = try token().split(separator: ".").prefix(2).joined(separator: ".")
    let big = String(repeating: "a", count: 600_000)
    var rows = [
      Row(name: "missing Authorization", request: get(nil), status: 401),
      Row(name: "empty Authorization", request: get(""), status: 401),
      Row(name: "Basic scheme", request: get("Basic dXNlcjpwYXNz"), status: 401),
      Row(name: "Bearer without token", request: get("Bearer"), status: 401),
      Row(name: "not a JWT", request: get("Bearer hello"), status: 401),
      Row(name: "two segments", request: get("Bearer \(halfToken)"), status: 401),
      Row(name: "empty signature", request: get("Bearer \(halfToken)."), status: 401),
      Row(name: "signature of letters", request: get("Bearer \(halfToken).AAAA"), status: 401),
      Row(name: "expired", request: get("Bearer " + (try token { $0.claims["exp"] = now - 60 })), status: 401),
      Row(name: "no exp", request: get("Bearer " + (try token { $0.claims["exp"] = nil })), status: 401),
      Row(name: "exp a string", request: get("Bearer " + (try token { $0.claims["exp"] = "later" })), status: 401),
      Row(name: "alg HS256", request: get("Bearer " + (try token { $0.header["alg"] = "HS256" })), status: 401),
      Row(name: "alg none", request: get("Bearer " + (try token { $0.header["alg"] = "none" })), status: 401),
      Row(name: "alg ES384", request: get("Bearer " + (try token { $0.header["alg"] = "ES384" })), status: 401),
      Row(name: "no kid", request: get("Bearer " + (try token { $0.header["kid"] = nil })), status: 401),
      Row(name: "unknown kid", request: get("Bearer " + (try token { $0.header["kid"] = "ABCDEFGHIJ" })), status: 401),
      Row(name: "a foreign key", request: get("Bearer " + (try token(key: foreignKey, base: foreign))), status: 401),
      Row(name: "kid of ours, signed by another key", request: get("Bearer " + (try token(key: foreignKey))), status: 401),
      Row(name: "revoked key", request: get("Bearer " + (try token(key: revokedKey, base: revoked))), status: 401),
      Row(name: "wrong iss", request: get("Bearer " + (try token { $0.claims["iss"] = foreign.issuerId })), status: 401),
      Row(name: "no iss", request: get("Bearer " + (try token { $0.claims["iss"] = nil })), status: 401),
      Row(name: "wrong aud", request: get("Bearer " + (try token { $0.claims["aud"] = "appstoreconnect-v2" })), status: 401),
      Row(name: "aud array without ours", request: get("Bearer " + (try token { $0.claims["aud"] = ["a", "b"] })), status: 401),
      Row(name: "no aud", request: get("Bearer " + (try token { $0.claims["aud"] = nil })), status: 401),
      Row(name: "wrong bid", request: get("Bearer " + (try token { $0.claims["bid"] = "com.example.other" })), status: 401),
      Row(name: "no bid", request: get("Bearer " + (try token { $0.claims["bid"] = nil })), status: 401),
      Row(name: "exp 61 min after iat", request: get("Bearer " + (try token { $0.claims["iat"] = now; $0.claims["exp"] = now + 3660 })), status: 401),
      Row(name: "no iat, exp in 2 h", request: get("Bearer " + (try token { $0.claims["exp"] = now + 7200 })), status: 401),
      Row(name: "unknown method, no token", request: get(nil, method: "BREW"), status: 401),
      Row(name: "unknown path, no token", request: get(nil, path: "/nothing/here"), status: 401),
      Row(name: "fractional iat and exp", request: get("Bearer " + (try token { $0.claims["iat"] = now - 0.5; $0.claims["exp"] = now + 299.5 })), status: 404),
      Row(name: "aud array with ours", request: get("Bearer " + (try token { $0.claims["aud"] = ["x", "appstoreconnect-v1"] })), status: 404),
      Row(name: "lower-case bearer", request: get("bearer " + (try token())), status: 404),
      Row(name: "no typ, unknown claims", request: get("Bearer " + (try token { $0.header["typ"] = nil; $0.claims["nonce"] = "n" })), status: 404),
      Row(name: "declared 2 MiB body", request: "PUT /inApps/v1/subscriptions/extend/mass HTTP/1.1\r\nHost: x\r\nContent-Length: 2097152\r\n\r\n", status: 413),
      Row(
        name: "chunked body over 1 MiB",
        request: "PUT /inApps/v1/subscriptions/extend/mass HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "927C0\r\n\(big)\r\n927C0\r\n\(big)\r\n0\r\n\r\n",
        status: 413),
      Row(name: "one 100 KB header", request: "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "h", count: 100_000))\r\n\r\n", status: 431),
      Row(
        name: "3,000 small headers",
        request: "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<3000).map { "X-H\($0): value-\($0)\r\n" }.joined() + "\r\n", status: 431),
    ]
    rows.append(Row(name: "a good token", request: goodRequest, status: 404))

    let fifo = scratch.appendingPathComponent("ready").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let serve = try StorefrontProcess.binary.get().start(
      ["serve", "--listen", "127.0.0.1:0", "--ready-file", fifo, "--json", "--data-dir", data.path])
    let port = try address(fromFIFO: fifo)
    for row in rows {
      let connection = try RawHTTPConnection(port: port)
      try connection.send(row.request)
      let response = try connection.receive(timeout: 30)
      XCTAssertEqual(response.status, row.status, row.name)
      if row.status == 401 {
        XCTAssertEqual(response.headers["content-type"], "text/plain", row.name)
        XCTAssertTrue(response.text.hasPrefix("Unauthenticated\n\nRequest ID: "), row.name)
      } else if row.status == 431 {
        // libmicrohttpd answers these itself, before any handler, with a short HTML page.
        XCTAssertTrue(response.text.contains("header was too big"), "\(row.name): \(response.text)")
      } else {
        XCTAssertEqual(response.headers["content-type"], "application/json", row.name)
        XCTAssertNotNil(try? JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(row.name): \(response.text)")
      }
      let next = try RawHTTPConnection(port: port)
      try next.send(goodRequest)
      XCTAssertEqual(try next.receive(timeout: 30).status, 404, "after \(row.name)")
    }
    XCTAssertGreaterThanOrEqual(rows.count, 38)
    XCTAssertEqual(kill(serve.processIdentifier, SIGTERM), 0)
    let result = try serve.wait(timeout: 30)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertFalse(result.stdout.contains("eyJ"), "a token was logged")
  }
}
