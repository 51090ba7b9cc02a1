import AppReceipt
import Foundation
import SandboxSigning
import StoreEngine
import XCTest

/// The OpenSSL side: the ASN.1 round trip, the CMS signature, and what the decoder refuses.
final class AppReceiptSigningTests: XCTestCase {
  private var directories: [URL] = []

  override func tearDown() {
    for directory in directories { try? FileManager.default.removeItem(at: directory) }
    super.tearDown()
  }

  func authority() throws -> SandboxCertificateAuthority {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-\(UUID().uuidString)")
    directories.append(directory)
    return try SandboxCertificateAuthority.open(
      in: directory.appendingPathComponent("ca"), validFrom: Date(timeIntervalSince1970: 1_500_000_000))
  }

  func test_attributesSurviveOpenSSLsEncoderAndDecoder() throws {
    let attributes = [
      ReceiptAttribute(2, .utf8("com.example.ünïcode")), ReceiptAttribute(4, .bytes(Data([0x30, 0x03, 0x02, 0x01, 0x01]))),
      ReceiptAttribute(12, .date(Date(timeIntervalSince1970: 1_767_225_600))), ReceiptAttribute(1701, .integer(-5)),
      ReceiptAttribute(17, .set([ReceiptAttribute(1703, .utf8("2000000000000001")), ReceiptAttribute(1711, .integer(Int64.max))])),
    ]
    let der = try AppReceiptEncoding.der(attributes)
    let back = try AppReceiptEncoding.attributes(der)
    // DER sorts a SET OF by encoding; compare in type order, nested sets too.
    func normalized(_ list: [ReceiptAttribute]) -> [ReceiptAttribute] {
      list.map { attribute in
        guard case .set(let inner) = attribute.value else { return attribute }
        return ReceiptAttribute(attribute.type, .set(normalized(inner)), version: attribute.version)
      }.sorted { $0.type < $1.type }
    }
    XCTAssertEqual(normalized(back), normalized(attributes))
    XCTAssertEqual(der.first, 0x31, "a SET")
    XCTAssertThrowsError(try AppReceiptEncoding.attributes(der + Data([0])))
  }

  func test_aSignedReceiptDecodesAgainstItsRoot_andIsRefusedOtherwise() throws {
    let ca = try authority()
    let ledger = InMemoryLedgerStore()
    let purchase = ReceiptInclusionTests.transaction(2_000_000_000_000_001, .consumable)
    try ledger.commit([.putTransaction(purchase)])
    let builder = AppReceiptBuilder(
      ledger: ledger, authority: ca, bundleID: "com.example.storefront", now: { ReceiptInclusionTests.start })
    let receipt = try builder.receipt(account: "tester")
    XCTAssertEqual(Array(receipt.prefix(1)), [0x30])
    let decoder = AppReceiptDecoder(trustedRoots: [ca.root])
    let contents = try decoder.decode(der: receipt, at: Date())
    XCTAssertEqual(contents.bundleID, "com.example.storefront")
    XCTAssertEqual(contents.receiptType, "ProductionSandbox")
    XCTAssertEqual(contents.account, "tester")
    XCTAssertEqual(contents.creationDate, ReceiptInclusionTests.start)
    XCTAssertEqual(contents.inAppPurchases.map(\.transactionID), ["2000000000000001"])
    XCTAssertEqual(contents.sha1Hash.count, 20)
    XCTAssertEqual(try builder.contents(account: "tester"), contents)

    let other = AppReceiptDecoder(trustedRoots: [try authority().root])
    XCTAssertThrowsError(try other.decode(der: receipt, at: Date())) { error in
      guard case AppReceiptDecoder.Failure.notAuthentic = error else { return XCTFail("\(error)") }
    }
    // Change the product id inside the signed content: still PKCS#7, no longer the signed bytes.
    let product = Data("product.consumable".utf8)
    let range = try XCTUnwrap(receipt.range(of: product))
    var tampered = receipt
    tampered[range.lowerBound] ^= 0x01
    XCTAssertThrowsError(try decoder.decode(der: tampered, at: Date())) { error in
      guard case AppReceiptDecoder.Failure.notAuthentic = error else { return XCTFail("\(error)") }
    }
    XCTAssertThrowsError(try decoder.decode(base64: "bm90IGEgcmVjZWlwdA==", at: Date())) { error in
      guard case AppReceiptDecoder.Failure.malformed = error else { return XCTFail("\(error)") }
    }
    // Line feeds inside the base64 (seed 002's app) are accepted.
    let wrapped = receipt.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
    XCTAssertEqual(try decoder.decode(base64: wrapped, at: Date()), contents)
  }

  func test_clearingTheHistoryEmptiesTheReceipt() throws {
    let ca = try authority()
    let ledger = InMemoryLedgerStore()
    try ledger.commit([.putTransaction(ReceiptInclusionTests.transaction(7, .nonConsumable, finished: true))])
    let builder = AppReceiptBuilder(ledger: ledger, authority: ca, bundleID: "b", now: { ReceiptInclusionTests.start })
    XCTAssertEqual(try builder.contents(account: "tester").inAppPurchases.count, 1)
    try ledger.commit([.clearHistory(account: "tester")])
    let decoded = try AppReceiptDecoder(trustedRoots: [ca.root]).decode(der: try builder.receipt(account: "tester"), at: Date())
    XCTAssertEqual(decoded.inAppPurchases, [])
  }
}
