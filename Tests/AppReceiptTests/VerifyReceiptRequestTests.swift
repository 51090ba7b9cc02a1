import AppReceipt
import Foundation
import XCTest

/// How a verifyReceipt body is read: JSON whatever the content type, tolerant where clients are.
final class VerifyReceiptRequestTests: XCTestCase {
  func test_fieldsAndTheirTolerances() throws {
    let plain = try XCTUnwrap(VerifyReceiptRequest(body: Data(#"{"receipt-data":"QUJD","password":"s3"}"#.utf8)))
    XCTAssertEqual(plain, VerifyReceiptRequest(body: Data(#"{"receipt-data":"QUJD","password":"s3","exclude-old-transactions":false}"#.utf8)))
    XCTAssertEqual(plain.password, "s3")
    XCTAssertFalse(plain.excludeOldTransactions)
    for flag in ["true", "\"true\"", "\"TRUE\"", "1"] {
      let body = Data(#"{"receipt-data":"QUJD","exclude-old-transactions":\#(flag)}"#.utf8)
      XCTAssertEqual(VerifyReceiptRequest(body: body)?.excludeOldTransactions, true, flag)
    }
    // Seed 002's app: raw line feeds inside the JSON string.
    let wrapped = VerifyReceiptRequest(body: Data("{\"receipt-data\" : \"QUJD\nREVG\r\n\"}".utf8))
    XCTAssertEqual(wrapped?.receiptData, "QUJDREVG")
    for bad in [#"{"password":"x"}"#, #"{"receipt-data":1}"#, #"{"receipt-data":"a","password":2}"#, "[]", "", "{"] {
      XCTAssertNil(VerifyReceiptRequest(body: Data(bad.utf8)), bad)
    }
  }
}
