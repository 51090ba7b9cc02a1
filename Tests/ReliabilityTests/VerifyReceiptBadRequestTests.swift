import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Bad `verifyReceipt` bodies to the real `storefront serve`: each is answered (HTTP 200 with a
/// status, or the server's 413 for a body over its limit) without a crash, and a good receipt is
/// still verified after each.
final class VerifyReceiptBadRequestTests: XCTestCase {
  private struct Row {
    var name: String
    var body: Data
    var method = "POST"
    /// The `status` in the JSON; nil for the server's 413.
    var status: Int?
  }

  func testEveryBadBodyIsAnsweredAndTheServerKeepsVerifying() throws {
    let fixture = try ServeFixture(self)
    let script = "account jake password=sandbox1\nset dialogs off\nbuy com.jake.sample.ExInAppPurchase.coins100\n"
    XCTAssertEqual(try StorefrontProcess.run(["run", "-", "--data-dir", fixture.data.path], input: Data(script.utf8)).status, 0)
    let exported = try StorefrontProcess.run(["receipt", "--data-dir", fixture.data.path])
    XCTAssertEqual(exported.status, 0, exported.stderr)
    let receipt = exported.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let der = try XCTUnwrap(Data(base64Encoded: receipt))
    func json(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object) }
    func text(_ string: String) -> Data { Data(string.utf8) }
    var truncated = der
    truncated.removeLast(der.count / 2)
    let rows: [Row] = [
      Row(name: "empty body", body: Data(), status: 21002),
      Row(name: "not JSON", body: text("receipt-data=abc"), status: 21002),
      Row(name: "JSON array", body: try json([receipt]), status: 21002),
      Row(name: "JSON string", body: text("\"\(receipt)\""), status: 21002),
      Row(name: "JSON null", body: text("null"), status: 21002),
      Row(name: "missing receipt-data", body: try json(["password": "x"]), status: 21002),
      Row(name: "receipt-data a number", body: try json(["receipt-data": 12]), status: 21002),
      Row(name: "receipt-data an object", body: try json(["receipt-data": ["a": 1]]), status: 21002),
      Row(name: "receipt-data null", body: text("{\"receipt-data\":null}"), status: 21002),
      Row(name: "receipt-data empty", body: try json(["receipt-data": ""]), status: 21002),
      Row(name: "password a number", body: try json(["receipt-data": receipt, "password": 5]), status: 21002),
      Row(name: "exclude-old-transactions a word", body: try json(["receipt-data": receipt, "exclude-old-transactions": "maybe"]), status: 21002),
      Row(name: "exclude-old-transactions 7", body: try json(["receipt-data": receipt, "exclude-old-transactions": 7]), status: 21002),
      Row(name: "not base64", body: try json(["receipt-data": "!!!***"]), status: 21002),
      Row(name: "base64 of text", body: try json(["receipt-data": Data("hello".utf8).base64EncodedString()]), status: 21002),
      Row(name: "base64 of random bytes", body: try json(["receipt-data": Data((0..<512).map { UInt8(($0 * 37) & 0xFF) }).base64EncodedString()]), status: 21002),
      Row(name: "truncated receipt", body: try json(["receipt-data": truncated.base64EncodedString()]), status: 21002),
      Row(name: "unterminated JSON", body: text("{\"receipt-data\":\"\(receipt)"), status: 21002),
      Row(name: "deeply nested JSON", body: text(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)), status: 21002),
      Row(name: "GET", body: Data(), method: "GET", status: 21000),
      Row(name: "DELETE with a good body", body: try json(["receipt-data": receipt]), method: "DELETE", status: 21000),
      Row(name: "body over the server's 1 MiB limit", body: Data(repeating: 0x61, count: 1_200_000), status: nil),
      Row(name: "a 900 KB receipt-data of junk", body: try json(["receipt-data": String(repeating: "QUFB", count: 225_000)]), status: 21002),
    ]
    let (serve, port) = try fixture.start()
    let good = try json(["receipt-data": receipt])
    for row in rows {
      let answer = try Self.send(port, method: row.method, body: row.body)
      if let status = row.status {
        XCTAssertEqual(answer.status, 200, row.name)
        let object = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
        XCTAssertEqual(object?["status"] as? Int, status, "\(row.name): \(answer.text.prefix(200))")
      } else {
        XCTAssertEqual(answer.status, 413, row.name)
      }
      let after = try Self.send(port, method: "POST", body: good)
      XCTAssertEqual(((try? JSONSerialization.jsonObject(with: after.body)) as? [String: Any])?["status"] as? Int, 0, "after \(row.name)")
    }
    _ = try ServeFixture.stop(serve)
  }

  private static func send(_ port: UInt16, method: String, body: Data) throws -> RawHTTPConnection.Response {
    let connection = try RawHTTPConnection(port: port)
    var request = Data("\(method) /verifyReceipt HTTP/1.1\r\nHost: buy.itunes.apple.com\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
    request.append(body)
    try connection.send(request)
    return try connection.receive(timeout: 30)
  }
}
