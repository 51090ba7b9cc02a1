import Foundation
import StoreEngine

/// A ledger row as the server returns it: the row, its JWS exactly as stored, and what the JWS says
/// about itself.
struct SignedTransaction {
  var row: PaymentTransaction
  /// The stored compact JWS, byte for byte.
  var jws: String
  /// The payload's `signedDate` (ms): when the row last changed, Apple's history order.
  var signedDate: Int64
  var environment: String
  var bundleID: String

  /// The row's own signed transaction (not a re-download carrying its purchase's JWS), or nil.
  init?(_ row: PaymentTransaction) {
    guard let jws = row.signedTransaction, let facts = Facts(jws: jws), facts.transactionId == row.id.description else {
      return nil
    }
    self.row = row
    self.jws = jws
    signedDate = facts.signedDate ?? 0
    environment = facts.environment ?? ""
    bundleID = facts.bundleId ?? ""
  }

  /// The few payload fields the server reads; everything else stays in the JWS.
  private struct Facts: Decodable {
    var transactionId: String
    var environment: String?
    var bundleId: String?
    var signedDate: Int64?

    init?(jws: String) {
      // Bytes, not Characters: a JWS is ASCII, and a stored one is ~3.7 KB that every history
      // request reads, row by row.
      let bytes = jws.utf8
      guard let first = bytes.firstIndex(of: UInt8(ascii: ".")) else { return nil }
      let start = bytes.index(after: first)
      guard let second = bytes[start...].firstIndex(of: UInt8(ascii: ".")),
        !bytes[bytes.index(after: second)...].contains(UInt8(ascii: ".")),
        let data = Self.base64URLDecoded(bytes[start..<second]),
        let facts = try? JSONDecoder().decode(Facts.self, from: data)
      else { return nil }
      self = facts
    }

    /// Unpadded base64url → bytes, in one pass (no string replacing).
    static func base64URLDecoded(_ text: Substring.UTF8View) -> Data? {
      var base64 = [UInt8]()
      base64.reserveCapacity(text.count + 3)
      for byte in text {
        switch byte {
        case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
        case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
        default: base64.append(byte)
        }
      }
      while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
      return Data(base64Encoded: Data(base64))
    }
  }
}
