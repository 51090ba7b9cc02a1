import StoreEngine

/// Stores each JWS header once. A signed transaction's header carries the three-certificate chain
/// (~3.5 KB) and is the same for every JWS a signer makes, so a row keeps `~<hash>.<payload>.<sig>`
/// and the header lives in `jws_headers` under its hash. Expanding gives back the exact bytes.
///
/// The hash is FNV-1a (64 bit) plus the length: a ledger sees a handful of distinct headers (one per
/// signing chain), so a collision is not a practical concern; a header whose hash is already taken
/// by a different header is simply stored whole.
final class JWSHeaderTable {
  private var headers: [String: String] = [:]

  static let marker: Character = "~"

  /// Replaces the headers of `transaction`'s JWS with references; returns the headers to store.
  func compact(_ transaction: PaymentTransaction) -> (PaymentTransaction, [(String, String)]) {
    guard transaction.signedTransaction != nil || transaction.signedRenewalInfo != nil else { return (transaction, []) }
    var stored = transaction
    var new: [(String, String)] = []
    stored.signedTransaction = transaction.signedTransaction.map { compact($0, into: &new) }
    stored.signedRenewalInfo = transaction.signedRenewalInfo.map { compact($0, into: &new) }
    return (stored, new)
  }

  /// The header last compacted and its hash: a signer writes the same header every time, and
  /// comparing two equal native strings is a memcmp, far cheaper than hashing 3.5 KB again.
  private var last: (header: String, hash: String)?

  private func compact(_ jws: String, into new: inout [(String, String)]) -> String {
    // The common case: the same signer's header again, recognised by its prefix without a scan.
    if let last, jws.utf8.count > last.header.utf8.count + 1, jws.hasPrefix(last.header) {
      let dot = jws.utf8.index(jws.utf8.startIndex, offsetBy: last.header.utf8.count)
      if jws.utf8[dot] == UInt8(ascii: ".") {
        if !new.contains(where: { $0.0 == last.hash }) { new.append((last.hash, last.header)) }
        return String(Self.marker) + last.hash + jws[dot...]
      }
    }
    let utf8 = jws.utf8
    guard utf8.first != UInt8(ascii: "~"), let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return jws }
    let header = String(jws[..<dot])
    guard header.utf8.count > 64 else { return jws }
    let hash: String
    if let last, last.header == header {
      hash = last.hash
    } else {
      hash = Self.hash(header)
      if let known = headers[hash], known != header { return jws }
      headers[hash] = header
      last = (header, hash)
    }
    if !new.contains(where: { $0.0 == hash }) { new.append((hash, header)) }
    return String(Self.marker) + hash + jws[dot...]
  }

  /// The transaction with its JWS headers put back; nil when a referenced header is unknown.
  func expand(_ transaction: PaymentTransaction, reload: () -> [String: String]) -> PaymentTransaction? {
    guard transaction.signedTransaction?.utf8.first == UInt8(ascii: "~")
      || transaction.signedRenewalInfo?.utf8.first == UInt8(ascii: "~")
    else { return transaction }
    var expanded = transaction
    guard let signed = expand(transaction.signedTransaction, reload: reload),
      let renewal = expand(transaction.signedRenewalInfo, reload: reload)
    else { return nil }
    expanded.signedTransaction = signed.value
    expanded.signedRenewalInfo = renewal.value
    return expanded
  }

  private struct Field { var value: String? }

  private func expand(_ jws: String?, reload: () -> [String: String]) -> Field? {
    guard let jws, jws.utf8.first == UInt8(ascii: "~"), let dot = jws.utf8.firstIndex(of: UInt8(ascii: ".")) else {
      return Field(value: jws)
    }
    let hash = String(jws[jws.index(after: jws.startIndex)..<dot])
    if headers[hash] == nil { headers.merge(reload()) { mine, _ in mine } }
    guard let header = headers[hash] else { return nil }
    return Field(value: header + jws[dot...])
  }

  static func hash(_ text: String) -> String {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
    return String(value, radix: 16) + "-" + String(text.utf8.count)
  }
}
