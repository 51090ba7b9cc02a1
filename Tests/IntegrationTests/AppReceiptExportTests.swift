import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Issue 15's "done when" for the receipt itself: `storefront receipt` output verifies with
/// `openssl cms -verify` and our root, Apple's `ReceiptUtility` finds our transaction id, and an
/// independent ASN.1 reader (asn1crypto) decodes every attribute with the ledger's values.
final class AppReceiptExportTests: XCTestCase {
  /// A consumable left unfinished, a finished consumable, a refunded non-consumable and a monthly
  /// subscription that renewed once.
  static let purchases = """
    account jake password=sandbox1
    set dialogs off
    buy com.jake.sample.ExInAppPurchase.coins100
    finish last
    buy com.jake.sample.ExInAppPurchase.coins100
    buy com.jake.sample.ExInAppPurchase.shopping
    finish last
    refund last
    buy com.jake.sample.ExInAppPurchase.premium.monthly
    finish last
    advance P1M

    """

  struct Checked: Decodable {
    struct Attribute: Decodable {
      var type: Int
      var version: Int
      var value: Value
    }
    enum Value: Decodable {
      case text(String), number(Int64), set([Attribute])
      init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .text(text) }
        else { self = .set(try container.decode([Attribute].self)) }
      }
      var text: String? { if case .text(let t) = self { t } else { nil } }
      var number: Int64? { if case .number(let n) = self { n } else { nil } }
      var set: [Attribute]? { if case .set(let s) = self { s } else { nil } }
    }
    var name: String
    var transaction_id: String?
    var error: String?
    var content_type: String
    var certificates: [String?]
    var attributes: [Attribute]
  }

  struct Listed: Decodable {
    var transactionId: String
    var originalTransactionId: String
    var productId: String
    var quantity: Int
    var purchaseDate: String
    var expiresDate: String?
    var revocationDate: String?
    var state: String
    var finished: Bool
  }

  static func check(_ receipts: [(String, String)], python: URL) throws -> [String: Checked] {
    let script = StorefrontBinary.packageRoot.appendingPathComponent("Tests/python/receipt_check.py").path
    let input = try JSONSerialization.data(withJSONObject: ["receipts": receipts.map { ["name": $0.0, "base64": $0.1] }])
    let result = try ChildProcess.run(python.path, [script], stdin: input, timeout: 120)
    XCTAssertEqual(result.status, 0, result.stderr)
    let list = try JSONDecoder().decode([Checked].self, from: result.stdoutData)
    return Dictionary(list.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
  }

  func testOpenSSLAppleAndASN1CryptoReadTheReceipt_andItsValuesAreTheLedgers() throws {
    let apple = try AppleVerifier.preparedOrSkipped()
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let run = try StorefrontBinary.run(["run", "-", "--data-dir", data], stdin: Data(Self.purchases.utf8), in: directory)
    XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
    let der = directory.path("receipt.der")
    XCTAssertEqual(try StorefrontBinary.run(["receipt", "--data-dir", data, "--out", der], in: directory).status, 0)
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--data-dir", data, "--out", directory.path("root.pem")], in: directory).status, 0)

    let openssl = try ChildProcess.run(
      "/usr/bin/env",
      ["openssl", "cms", "-verify", "-inform", "DER", "-in", der, "-CAfile", directory.path("root.pem"), "-out", directory.path("payload.der")],
      timeout: 60)
    XCTAssertEqual(openssl.status, 0, openssl.stderr)
    XCTAssertTrue(openssl.stderr.contains("Verification successful"), openssl.stderr)
    // And refuses it against another data directory's root.
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--data-dir", directory.path("other"), "--out", directory.path("other.pem")], in: directory).status, 0)
    let foreign = try ChildProcess.run(
      "/usr/bin/env", ["openssl", "cms", "-verify", "-inform", "DER", "-in", der, "-CAfile", directory.path("other.pem"), "-out", "/dev/null"],
      timeout: 60)
    XCTAssertNotEqual(foreign.status, 0)

    let base64 = try StorefrontBinary.run(["receipt", "--data-dir", data], in: directory)
    XCTAssertEqual(base64.status, 0, base64.stderr)
    let text = base64.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(Data(base64Encoded: text).map { $0.prefix(1) }, Data([0x30]))

    let listing = try StorefrontBinary.run(["transactions", "--json", "--data-dir", data], in: directory)
    let ledger = try listing.stdout.split(separator: "\n").map { try JSONDecoder().decode(Listed.self, from: Data($0.utf8)) }
    let checked = try XCTUnwrap(try Self.check([("now", text)], python: apple.python)["now"])
    XCTAssertNil(checked.error)
    XCTAssertEqual(checked.content_type, "1.2.840.113549.1.7.2")
    XCTAssertEqual(checked.certificates.count, 2, "the leaf and the intermediate, so a verifier needs only the root")

    let top = Dictionary(checked.attributes.map { ($0.type, $0.value) }, uniquingKeysWith: { a, _ in a })
    XCTAssertEqual(top[2]?.text, "com.example.storefront")
    XCTAssertEqual(top[3]?.text, "1")
    XCTAssertEqual(top[19]?.text, "1.0")
    XCTAssertEqual(top[0]?.text, "ProductionSandbox")
    XCTAssertEqual(top[4]?.text?.count, 32, "16 opaque bytes, hex")
    XCTAssertEqual(top[5]?.text?.count, 40, "a SHA-1, hex")
    XCTAssertNotNil(top[12]?.text.flatMap { ISO8601DateFormatter().date(from: $0) })
    let inApp = checked.attributes.filter { $0.type == 17 }.compactMap(\.value.set)
    var byID: [String: [Int: Checked.Value]] = [:]
    for entry in inApp {
      let fields = Dictionary(entry.map { ($0.type, $0.value) }, uniquingKeysWith: { a, _ in a })
      byID[fields[1703]?.text ?? "?"] = fields
    }
    // Apple's rules: the finished consumable is gone; the rest stays, renewals included.
    let expected = ledger.filter { $0.state == "purchased" && !($0.productId.hasSuffix("coins100") && $0.finished) }
    XCTAssertEqual(Set(byID.keys), Set(expected.map(\.transactionId)))
    XCTAssertEqual(expected.filter { $0.productId.hasSuffix("monthly") }.count, 2, "the purchase and one renewal")
    for transaction in expected {
      let fields = try XCTUnwrap(byID[transaction.transactionId])
      XCTAssertEqual(fields[1702]?.text, transaction.productId)
      XCTAssertEqual(fields[1701]?.number, Int64(transaction.quantity))
      XCTAssertEqual(fields[1705]?.text, transaction.originalTransactionId)
      XCTAssertEqual(fields[1704]?.text, transaction.purchaseDate)
      XCTAssertEqual(fields[1708]?.text, transaction.expiresDate)
      XCTAssertEqual(fields[1712]?.text, transaction.revocationDate)
      if transaction.productId.hasSuffix("monthly") {
        XCTAssertNotNil(fields[1711]?.number, "web order line item id")
        XCTAssertEqual(fields[1719]?.number, 0)
      }
    }
    XCTAssertNotNil(expected.first { $0.revocationDate != nil }, "the refund is in the receipt")
    XCTAssertTrue(expected.map(\.transactionId).contains(checked.transaction_id ?? "none"), "\(checked.transaction_id ?? "nil")")

    // clear-history empties it, as SKTestSession.clearTransactions() does.
    let cleared = try StorefrontBinary.run(["run", "-", "--data-dir", data], stdin: Data("clear-history jake\n".utf8), in: directory)
    XCTAssertEqual(cleared.status, 0, cleared.stdout + cleared.stderr)
    let empty = try StorefrontBinary.run(["receipt", "--data-dir", data, "--account", "jake"], in: directory)
    let after = try XCTUnwrap(try Self.check([("cleared", empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines))], python: apple.python)["cleared"])
    XCTAssertEqual(after.attributes.filter { $0.type == 17 }.count, 0)
    XCTAssertNil(after.transaction_id)
    XCTAssertNil(after.error)
  }

  func testAnUnknownAccountOrAMissingLedgerIsAClearError() throws {
    let directory = try TemporaryDirectory(self)
    let data = directory.path("data")
    let none = try StorefrontBinary.run(["receipt", "--data-dir", data], in: directory)
    XCTAssertEqual(none.status, 66)
    XCTAssertTrue(none.stderr.contains("No ledger at"), none.stderr)
    XCTAssertEqual(try StorefrontBinary.run(["run", "-", "--data-dir", data], stdin: Data("account jake\n".utf8), in: directory).status, 0)
    let unknown = try StorefrontBinary.run(["receipt", "--data-dir", data, "--account", "jak"], in: directory)
    XCTAssertEqual(unknown.status, 66)
    XCTAssertTrue(unknown.stderr.contains("Unknown account 'jak'") && unknown.stderr.contains("jake"), unknown.stderr)
    let binary = try StorefrontBinary.run(["receipt", "--data-dir", data, "--environment", "Xcode"], in: directory)
    XCTAssertEqual(binary.status, 64, binary.stderr)
  }
}
