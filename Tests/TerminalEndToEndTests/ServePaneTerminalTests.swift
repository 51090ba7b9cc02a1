import Foundation
import SandboxSigning
import StorefrontProcessTestSupport
import XCTest

/// `storefront --serve` end to end: the real binary in tmux serves the App Store Server API from
/// its own process, a real client calls it, and the Server pane shows each request.
final class ServePaneTerminalTests: XCTestCase {
  private struct CreatedKey: Decodable {
    var keyId: String
    var issuerId: String
    var privateKeyFile: String
  }

  private func get(_ port: UInt16, _ path: String, token: String?) throws -> RawHTTPConnection.Response {
    let connection = try RawHTTPConnection(port: port)
    let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
    try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)Connection: close\r\n\r\n")
    return try connection.receive(timeout: 10)
  }

  /// The port in the header's `Server http://127.0.0.1:PORT`.
  private func port(on screen: String) throws -> UInt16 {
    let marker = "Server http://127.0.0.1:"
    let start = try XCTUnwrap(screen.range(of: marker), "no server URL in the header:\n\(screen)").upperBound
    return try XCTUnwrap(UInt16(String(screen[start...].prefix { $0.isNumber })))
  }

  func testRequestsToTheTUIsServerShowInTheServerPaneWithTheTUIsPurchase() throws {
    let session = try TmuxSession(width: 140, height: 45)
    let created = try session.storefront(["keys", "create", "--json"])
    XCTAssertEqual(created.status, 0)
    let key = try JSONDecoder().decode(CreatedKey.self, from: Data(created.output.utf8))
    let privateKey = try PrivateKey(pem: Data(contentsOf: URL(fileURLWithPath: key.privateKeyFile)))
    let now = Date().timeIntervalSince1970
    let token = try TestToken(keyID: key.keyId, issuerID: key.issuerId, expires: now + 600, issued: now).signed(by: privateKey.signES256)

    try session.launch("--account mina --serve 127.0.0.1:0")
    try session.waitFor("Sandbox   Server http://127.0.0.1:")
    let port = try port(on: session.screen())

    // Refused: Apple's plain-text 401.
    let refused = try get(port, "/inApps/v1/transactions/1", token: nil)
    XCTAssertEqual(refused.status, 401)
    XCTAssertTrue(refused.text.hasPrefix("Unauthenticated"), refused.text)

    // A purchase in this TUI, after the server started: the next request sees it.
    try session.send("Enter")  // Remove Ads
    try session.waitFor("Do you want to buy one Remove Ads")
    try session.send("y")
    try session.waitFor("owned")
    let bought = try XCTUnwrap(session.ledger().first { $0["state"] as? String == "purchased" })
    let id = try XCTUnwrap(bought["transactionId"] as? String ?? (bought["transactionId"] as? NSNumber)?.stringValue)
    let answer = try get(port, "/inApps/v1/transactions/\(id)", token: token)
    XCTAssertEqual(answer.status, 200, answer.text)
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
    let signed = try XCTUnwrap(object["signedTransactionInfo"] as? String)

    // The Server pane: newest first, status and key id.
    try session.send("5")
    try session.waitUntil("both rows in the Server pane", timeout: 10) {
      let lines = try session.screen().split(separator: "\n")
      return lines.contains { $0.contains("/inApps/v1/transactions/\(id)") && $0.contains(" 200 ") && $0.contains(key.keyId) }
        && lines.contains { $0.contains("/inApps/v1/transactions/1 ") && $0.contains(" 401 ") }
    }
    // Opened: the token's claims (never the token) and the signed transaction decoded.
    try session.send("Enter")
    try session.waitFor("Token accepted: key \(key.keyId)")
    try session.waitFor("iss  \(key.issuerId)")
    try session.waitFor("aud  appstoreconnect-v1")
    let sheet = try session.screen()
    XCTAssertFalse(sheet.contains(String(token.split(separator: ".")[2].prefix(20))), "the token's signature is on screen:\n\(sheet)")
    try session.send("End")
    try session.waitFor("Decoded signedTransactionInfo")
    try session.waitFor(#""transactionId" : "\#(id)""#)
    try session.send("Escape")
    // The refused one says why.
    try session.send("Down", "Enter")
    try session.waitFor("Token refused: no Authorization header")
    try session.send("Escape")

    // What the server returned is byte for byte the JWS the TUI's transaction view exports.
    let exported = session.dataDirectory.deletingLastPathComponent().appendingPathComponent("sf-e2e-export-\(getpid()).jws")
    defer { try? FileManager.default.removeItem(at: exported) }
    try session.send("2", "e")
    try session.waitFor("Export Signed Transaction")
    for _ in 0..<"transaction-\(id).jws".count { try session.send("BSpace") }
    try session.type(exported.path)
    try session.send("Enter")
    try session.waitFor("Saved the JWS of transaction \(id)")
    XCTAssertEqual(try String(contentsOf: exported, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), signed)

    try session.send("q")
    try session.waitFor("EXIT=0")
    XCTAssertThrowsError(try get(port, "/inApps/v1/transactions/\(id)", token: token), "the server stops with the TUI")
  }
}
