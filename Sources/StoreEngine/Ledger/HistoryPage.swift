import Foundation

/// The order a history is read in, a page at a time (``LedgerStore/historyPage(account:order:after:limit:)``).
public enum HistoryOrder: Sendable, Hashable {
  /// First-insertion order: listings (`storefront transactions`), receipts.
  case insertion
  /// Ascending by (``PaymentTransaction/lastModifiedMilliseconds``, id): Apple's transaction-history
  /// order, in which a row moves to the end when it is re-signed (a refund, a revocation).
  case lastModified
}

/// Where the last page ended; the next page starts after it. Opaque to callers except that it can
/// be stored (a server's `revision` token) and compared.
public enum HistoryCursor: Sendable, Hashable, Codable {
  /// After the row at this position of the ledger's insertion order (its own numbering).
  case insertion(UInt64)
  /// After the row with this (last-modified ms, id).
  case lastModified(milliseconds: Int64, id: PaymentTransaction.ID)
}

/// One page of a history: at most `limit` rows, and where the next page starts (nil: this was the last).
public struct HistoryPage: Sendable, Equatable {
  public var rows: [PaymentTransaction]
  public var next: HistoryCursor?

  public init(rows: [PaymentTransaction], next: HistoryCursor?) {
    self.rows = rows
    self.next = next
  }
}

extension PaymentTransaction {
  /// When the row last changed, in ms: its JWS payload's `signedDate`, or, for a row without a
  /// signed transaction (purchasing, failed, deferred), its purchase date.
  public var lastModifiedMilliseconds: Int64 {
    self.signedTransaction.flatMap(CompactJWS.signedDateMilliseconds(of:)) ?? SignedPayloads.milliseconds(self.purchaseDate)
  }
}

extension CompactJWS {
  /// The payload's `signedDate` (ms), read without verifying or decoding the rest; nil when the
  /// string is not a compact JWS or its payload has no `signedDate`.
  public static func signedDateMilliseconds(of jws: String) -> Int64? {
    // Bytes, not Characters: a stored JWS is ~3.7 KB, and a page reads one per row; every
    // transaction a commit writes reads one too.
    var jws = jws
    return jws.withUTF8 { bytes -> Int64? in
      guard let first = bytes.firstIndex(of: UInt8(ascii: ".")) else { return nil }
      let payload = UnsafeBufferPointer(rebasing: bytes[(first + 1)...])
      guard let second = payload.firstIndex(of: UInt8(ascii: ".")),
        let json = Base64URL.decode(UnsafeBufferPointer(rebasing: payload[..<second]))
      else { return nil }
      return json.withUnsafeBufferPointer { topLevelInteger(named: "signedDate", in: $0) }
    }
  }

  /// The integer value of the top-level key `name` of the JSON object `json`, found by one pass
  /// over its bytes (strings skipped with their escapes, nesting counted); nil when the key is
  /// absent or its value is not an integer. Every row write reads one (`last_modified_ms`), and a
  /// JSONDecoder of the whole payload cost more than the row's other columns together.
  static func topLevelInteger(named name: StaticString, in json: UnsafeBufferPointer<UInt8>) -> Int64? {
    let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    var depth = 0
    var index = 0
    func skipSpace() {
      while index < json.count, json[index] == 0x20 || json[index] == 0x0A || json[index] == 0x0D || json[index] == 0x09 {
        index += 1
      }
    }
    while index < json.count {
      let byte = json[index]
      if byte == quote {
        let start = index + 1
        var end = start
        while end < json.count, json[end] != quote { end += json[end] == backslash ? 2 : 1 }
        index = end + 1
        guard depth == 1, end - start == key.count, end <= json.count,
          UnsafeBufferPointer(rebasing: json[start..<end]).elementsEqual(key)
        else { continue }
        skipSpace()
        guard index < json.count, json[index] == UInt8(ascii: ":") else { continue }
        index += 1
        skipSpace()
        var negative = false
        if index < json.count, json[index] == UInt8(ascii: "-") {
          negative = true
          index += 1
        }
        var value: Int64 = 0
        var digits = 0
        while index < json.count, json[index] >= UInt8(ascii: "0"), json[index] <= UInt8(ascii: "9") {
          let (times, overflow) = value.multipliedReportingOverflow(by: 10)
          let (sum, overflow2) = times.addingReportingOverflow(Int64(json[index] - UInt8(ascii: "0")))
          guard !overflow, !overflow2 else { return nil }
          value = sum
          digits += 1
          index += 1
        }
        guard digits > 0 else { return nil }
        if index < json.count, json[index] == UInt8(ascii: ".") || json[index] == UInt8(ascii: "e") || json[index] == UInt8(ascii: "E") {
          return nil
        }
        return negative ? -value : value
      }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      default: break
      }
      index += 1
    }
    return nil
  }
}

extension LedgerStore {
  /// The default pages over ``history(account:)`` / ``allTransactions()``: right, but it reads the
  /// whole history for every page. A ledger that holds long histories implements it with an index.
  public func historyPage(
    account: String?, order: HistoryOrder, after cursor: HistoryCursor?, limit: Int
  ) throws(LedgerError) -> HistoryPage {
    let all: [PaymentTransaction]
    if let account { all = try history(account: account) } else { all = try allTransactions() }
    return Self.page(of: all, order: order, after: cursor, limit: limit)
  }

  /// Consumable units bought by `account` (purchased, not revoked), by product: the default sums its
  /// whole history.
  public func consumableUnits(account: String) throws(LedgerError) -> [Product.ID: Int] {
    Self.consumableUnits(in: try history(account: account))
  }

  /// `all` (in insertion order) cut to the page after `cursor`: the reference the adapters are tested against.
  public static func page(
    of all: [PaymentTransaction], order: HistoryOrder, after cursor: HistoryCursor?, limit: Int
  ) -> HistoryPage {
    let limit = max(limit, 1)
    switch order {
    case .insertion:
      var start = 0
      if case .insertion(let position) = cursor { start = Int(clamping: position) + 1 }
      guard start < all.count else { return HistoryPage(rows: [], next: nil) }
      let end = min(start + limit, all.count)
      return HistoryPage(rows: Array(all[start..<end]), next: end < all.count ? .insertion(UInt64(end - 1)) : nil)
    case .lastModified:
      var keyed = all.map { (key: ($0.lastModifiedMilliseconds, $0.id.rawValue), row: $0) }
      keyed.sort { $0.key < $1.key }
      if case .lastModified(let milliseconds, let id) = cursor {
        keyed.removeAll { $0.key <= (milliseconds, id.rawValue) }
      }
      let rows = keyed.prefix(limit).map(\.row)
      guard keyed.count > limit, let last = rows.last else { return HistoryPage(rows: rows, next: nil) }
      return HistoryPage(rows: rows, next: .lastModified(milliseconds: last.lastModifiedMilliseconds, id: last.id))
    }
  }

  /// The consumable units of `history` (purchased, not revoked), by product.
  public static func consumableUnits(in history: [PaymentTransaction]) -> [Product.ID: Int] {
    var units: [Product.ID: Int] = [:]
    for row in history where row.productKind == .consumable && row.state == .purchased && row.revocationDate == nil {
      units[row.productID, default: 0] += row.quantity
    }
    return units
  }
}
