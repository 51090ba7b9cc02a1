import Foundation

/// A commit log row's JSON written directly, byte for byte what `JSONSerialization` writes for
/// ``CommitLog/encodeWithFoundation(_:)``'s arrays.
///
/// An advance at every-2s logs one entry per renewal: a day's record names 43,200 transactions, and
/// boxing each id in an `NSNumber` for `JSONSerialization` was a few percent of that day.
/// Strings that JSON escapes (and `/`, which `JSONSerialization` escapes) or that are not ASCII, and
/// ids above `Int64.max`, are left to `JSONSerialization` (nil). `CommitLogJSONTests` compares the two.
enum CommitLogJSON {
  static func encode(_ entries: [CommitLogEntry]) -> Data? {
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    bytes.reserveCapacity(2 + entries.count * 24)
    for (index, entry) in entries.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "["))
      let written: Bool
      switch entry {
      case .transaction(let id): written = append("t", ids: [id], to: &bytes)
      case .removedTransactions(let ids): written = append("x", ids: ids, to: &bytes)
      case .account(let name): written = append("a", strings: [name], to: &bytes)
      case .subscription(let id): written = append("s", ids: [id], to: &bytes)
      case .removedSubscription(let id): written = append("rs", ids: [id], to: &bytes)
      case .askToBuyRequest(let id): written = append("r", ids: [id], to: &bytes)
      case .currentAccount: written = append("ca", strings: [], to: &bytes)
      case .clock: written = append("c", strings: [], to: &bytes)
      case .notificationURL(let environment): written = append("n", strings: [environment], to: &bytes)
      case .deviceValue(let key): written = append("d", strings: [key], to: &bytes)
      case .massExtension(let product, let request): written = append("m", strings: [product.rawValue, request], to: &bytes)
      }
      guard written else { return nil }
      bytes.append(UInt8(ascii: "]"))
    }
    bytes.append(UInt8(ascii: "]"))
    return Data(bytes)
  }

  private static func append(_ kind: StaticString, ids: [PaymentTransaction.ID], to bytes: inout [UInt8]) -> Bool {
    quote(kind, to: &bytes)
    for id in ids {
      guard id.rawValue <= UInt64(Int64.max) else { return false }
      bytes.append(UInt8(ascii: ","))
      bytes.append(contentsOf: String(id.rawValue).utf8)
    }
    return true
  }

  private static func append(_ kind: StaticString, strings: [String], to bytes: inout [UInt8]) -> Bool {
    quote(kind, to: &bytes)
    for var string in strings {
      let plain = string.withUTF8 { utf8 in
        utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "/") }
      }
      guard plain else { return false }
      bytes.append(UInt8(ascii: ","))
      bytes.append(UInt8(ascii: "\""))
      bytes.append(contentsOf: string.utf8)
      bytes.append(UInt8(ascii: "\""))
    }
    return true
  }

  private static func quote(_ kind: StaticString, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    kind.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
  }
}
