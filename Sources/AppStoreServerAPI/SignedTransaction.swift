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
      let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 3, let data = Data(base64URLEncoded: parts[1]),
        let facts = try? JSONDecoder().decode(Facts.self, from: data)
      else { return nil }
      self = facts
    }
  }
}
