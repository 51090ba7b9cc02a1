import Foundation
import StoreEngine

/// An opaque `revision`: the sort key of the last item a page returned (and, for history, the sort
/// order), so the next page starts after it even when rows were added or re-signed in between.
struct PageToken: Equatable {
  enum Kind: String { case history = "h", refunds = "r", notifications = "n" }

  var kind: Kind
  var descending: Bool
  /// The position: a date in ms, then the transaction id.
  var date: Int64
  var id: UInt64

  /// Before every item of the order.
  static func start(_ kind: Kind, descending: Bool) -> PageToken {
    PageToken(kind: kind, descending: descending, date: descending ? .max : .min, id: descending ? .max : 0)
  }

  /// base64url of `h1:A:<date>:<id>`.
  var text: String {
    Data("\(kind.rawValue)1:\(descending ? "D" : "A"):\(date):\(id)".utf8).base64URLEncoded
  }

  /// The token `text` stands for, or nil when it is not one this server issued for `kind`.
  init?(_ text: String, kind: Kind) {
    guard let data = Data(base64URLEncoded: Substring(text)) else { return nil }
    let fields = String(decoding: data, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 4, fields[0] == "\(kind.rawValue)1", fields[1] == "A" || fields[1] == "D",
      let date = Int64(fields[2]), let id = UInt64(fields[3])
    else { return nil }
    self.init(kind: kind, descending: fields[1] == "D", date: date, id: id)
  }

  init(kind: Kind, descending: Bool, date: Int64, id: UInt64) {
    self.kind = kind
    self.descending = descending
    self.date = date
    self.id = id
  }

  /// True when an item at (`date`, `id`) comes after this position in the token's order.
  func precedes(date itemDate: Int64, id itemID: UInt64) -> Bool {
    let after = (itemDate, itemID) > (date, id)
    let before = (itemDate, itemID) < (date, id)
    return descending ? before : after
  }
}
