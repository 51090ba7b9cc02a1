import Foundation
import SandboxSigning
import StorefrontProcessTestSupport
import XCTest

/// Bad requests to the real `storefront serve`: every token Apple would refuse gets Apple's
/// plain-text 401, oversized bodies 413 (JSON), oversized headers libmicrohttpd's 431, bad ids,
/// parameters and bodies Apple's error code, unknown paths and methods a plain 404/405, and after each
/// the server still answers a good request. Slow clients and connections past the limit are in
/// ``ServeConnectionTests``.
final class ServeBadRequestTests: XCTestCase {
  private struct Row {
    var name: String
    var request: String
    var status: Int
    /// Apple's `errorCode` in the JSON body; nil for the plain-text answers (401, 404, 405, 431).
    var code: Int?

    init(name: String, request: String, status: Int, code: Int? = nil) {
      self.name = name
      self.request = request
      self.status = status
      self.code = code ?? (status == 413 ? 4_000_000 : nil)
    }
  }

  func testEveryBadRequestGetsApplesAnswerAndTheServerKeepsServing() throws {
    let fixture = try ServeFixture(self)
    let scratch = fixture.scratch
    let data = fixture.data
    let (good, goodKey) = (fixture.key, fixture.privateKey)
    let (revoked, revokedKey) = try ServeFixture.createKey(data)
    let (foreign, foreignKey) = try ServeFixture.createKey(scratch.appendingPathComponent("other"))
    XCTAssertEqual(try StorefrontProcess.run(["keys", "revoke", revoked.keyId, "--data-dir", data.path]).status, 0)

    let now = Date().timeIntervalSince1970
    func token(_ edit: (inout TestToken) -> Void = { _ in }, key: PrivateKey? = nil, base: ServeFixture.CreatedKey? = nil) throws -> String {
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
      Row(name: "fractional iat and exp", request: get("Bearer " + (try token { $0.claims["iat"] = now - 0.5; $0.claims["exp"] = now + 299.5 })), status: 404, code: 4_040_010),
      Row(name: "aud array with ours", request: get("Bearer " + (try token { $0.claims["aud"] = ["x", "appstoreconnect-v1"] })), status: 404, code: 4_040_010),
      Row(name: "lower-case bearer", request: get("bearer " + (try token())), status: 404, code: 4_040_010),
      Row(name: "no typ, unknown claims", request: get("Bearer " + (try token { $0.header["typ"] = nil; $0.claims["nonce"] = "n" })), status: 404, code: 4_040_010),
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
    rows += authenticatedRows(authorization: "Bearer " + (try token()))
    rows.append(Row(name: "a good token", request: goodRequest, status: 404, code: 4_040_010))

    let (serve, port) = try fixture.start()
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
      } else if let code = row.code {
        XCTAssertEqual(response.headers["content-type"], "application/json", row.name)
        let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        XCTAssertEqual(object?["errorCode"] as? Int, code, "\(row.name): \(response.text)")
        XCTAssertEqual(object.map { Set($0.keys) }, ["errorCode", "errorMessage"], row.name)
      } else {
        // An unknown path or method: a plain answer, as an HTTP front end gives (DECISIONS §15).
        XCTAssertEqual(response.headers["content-type"], "text/plain", row.name)
        XCTAssertEqual(response.text, row.status == 404 ? "Not Found\n" : "Method Not Allowed\n", row.name)
      }
      let next = try RawHTTPConnection(port: port)
      try next.send(goodRequest)
      XCTAssertEqual(try next.receive(timeout: 30).status, 404, "after \(row.name)")
    }
    XCTAssertGreaterThanOrEqual(rows.count, 50)
    let result = try ServeFixture.stop(serve)
    XCTAssertFalse(result.stdout.contains("eyJ"), "a token was logged")
  }

  /// Requests with a good token that Apple refuses for their id, parameters, body, path or method.
  private func authenticatedRows(authorization: String) -> [Row] {
    func request(_ path: String, method: String = "GET", body: String? = nil) -> String {
      "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(authorization)\r\n"
        + (body.map { "Content-Type: application/json\r\nContent-Length: \($0.utf8.count)\r\n\r\n\($0)" } ?? "\r\n")
    }
    let id = "2000000000000001"
    let history = "/inApps/v2/history/\(id)"
    let forty = String(repeating: "9", count: 40)
    func bad(_ name: String, _ path: String, _ code: Int, method: String = "GET", body: String? = nil) -> Row {
      Row(name: name, request: request(path, method: method, body: body), status: code / 10_000, code: code)
    }
    return [
      // Invalid ids: Apple's InvalidTransactionIdError, on every endpoint that takes one.
      bad("id of letters", "/inApps/v1/transactions/abc", 4_000_006),
      bad("negative id", "/inApps/v1/transactions/-1", 4_000_006),
      bad("40-digit id", "/inApps/v1/transactions/\(forty)", 4_000_006),
      bad("empty id", "/inApps/v1/transactions/", 4_000_006),
      bad("id with a percent-encoded letter", "/inApps/v1/transactions/12%41", 4_000_006),
      bad("history id of letters", "/inApps/v2/history/abc", 4_000_006),
      bad("v1 history, negative id", "/inApps/v1/history/-5", 4_000_006),
      bad("statuses, 40-digit id", "/inApps/v1/subscriptions/\(forty)", 4_000_006),
      bad("refunds, empty id", "/inApps/v2/refund/lookup/", 4_000_006),
      bad("app transaction, id of letters", "/inApps/v1/transactions/appTransactions/xyz", 4_000_006),
      // Revisions.
      bad("revision not ours", "\(history)?revision=garbage", 4_000_005),
      bad("revision repeated", "\(history)?revision=a&revision=b", 4_000_005),
      bad("refund revision not ours", "/inApps/v2/refund/lookup/\(id)?revision=%00%FF", 4_000_005),
      // Dates.
      bad("startDate a word", "\(history)?startDate=yesterday", 4_000_015),
      bad("startDate fractional", "\(history)?startDate=1.5", 4_000_015),
      bad("endDate negative", "\(history)?endDate=-5", 4_000_016),
      bad("startDate after endDate", "\(history)?startDate=2000&endDate=1000", 4_000_013),
      bad("startDate repeated", "\(history)?startDate=1&startDate=2", 4_000_015),
      // Enums and their repetitions.
      bad("sort sideways", "\(history)?sort=SIDEWAYS", 4_000_021),
      bad("sort repeated", "\(history)?sort=ASCENDING&sort=DESCENDING", 4_000_021),
      bad("productType unknown", "\(history)?productType=GADGET", 4_000_022),
      bad("productId empty", "\(history)?productId=", 4_000_023),
      bad("subscriptionGroupIdentifier empty", "\(history)?subscriptionGroupIdentifier=", 4_000_024),
      bad("excludeRevoked not a bool", "\(history)?excludeRevoked=perhaps", 4_000_025),
      bad("inAppOwnershipType unknown", "\(history)?inAppOwnershipType=BORROWED", 4_000_026),
      bad("inAppOwnershipType repeated", "\(history)?inAppOwnershipType=PURCHASED&inAppOwnershipType=PURCHASED", 4_000_026),
      bad("revoked not a bool", "\(history)?revoked=maybe", 4_000_030),
      bad("status 9", "/inApps/v1/subscriptions/\(id)?status=9", 4_000_031),
      bad("status a word", "/inApps/v1/subscriptions/\(id)?status=active", 4_000_031),
      bad("test notification token with a space", "/inApps/v1/notifications/test/a%20b", 4_000_020),
      bad("notification history paginationToken not ours", "/inApps/v1/notifications/history?paginationToken=x", 4_000_014,
        method: "POST", body: #"{"startDate":1,"endDate":2}"#),
      // Malformed JSON bodies.
      bad("consumption body not JSON", "/inApps/v2/transactions/consumption/\(id)", 4_000_000, method: "PUT", body: "{not json"),
      bad("consumption body empty", "/inApps/v2/transactions/consumption/\(id)", 4_000_000, method: "PUT", body: ""),
      bad("consumption body an array", "/inApps/v2/transactions/consumption/\(id)", 4_000_000, method: "PUT", body: "[1,2,3]"),
      bad("notification history body cut short", "/inApps/v1/notifications/history", 4_000_000, method: "POST", body: #"{"startDate":1,"#),
      bad("notification history startDate a string", "/inApps/v1/notifications/history", 4_000_015, method: "POST",
        body: #"{"startDate":"soon","endDate":2}"#),
      bad("notification history end before start", "/inApps/v1/notifications/history", 4_000_013, method: "POST",
        body: #"{"startDate":5,"endDate":1}"#),
      // Unknown paths and methods.
      Row(name: "unknown path", request: request("/nothing/here"), status: 404),
      Row(name: "unknown API version", request: request("/inApps/v9/transactions/\(id)"), status: 404),
      Row(name: "extra segment", request: request("/inApps/v1/transactions/\(id)/more"), status: 404),
      Row(name: "Look Up Order ID on Sandbox", request: request("/inApps/v1/lookup/MQKJ8Z2WQ3"), status: 404),
      Row(name: "DELETE a transaction", request: request("/inApps/v1/transactions/\(id)", method: "DELETE"), status: 405),
      Row(name: "POST to history", request: request(history, method: "POST", body: "{}"), status: 405),
      Row(name: "GET the consumption endpoint", request: request("/inApps/v2/transactions/consumption/\(id)"), status: 405),
      Row(name: "an invented method", request: request("/inApps/v1/transactions/\(id)", method: "BREW"), status: 405),
    ]
  }
}
