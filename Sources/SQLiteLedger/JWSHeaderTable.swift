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

  private func compact(_ jws: String, into new: inout [(String, String)]) -> String {
    guard let dot = jws.firstIndex(of: "."), jws.first != Self.marker else { return jws }
    let header = String(jws[..<dot])
    guard header.utf8.count > 64 else { return jws }
    let hash = Self.hash(header)
    if let known = headers[hash], known != header { return jws }
    headers[hash] = header
    if !new.contains(where: { $0.0 == hash }) { new.append((hash, header)) }
    return String(Self.marker) + hash + jws[dot...]
  }

  /// The transaction with its JWS headers put back; nil when a referenced header is unknown.
  func expand(_ transaction: PaymentTransaction, reload: () -> [String: String]) -> PaymentTransaction? {
    guard transaction.signedTransaction?.first == Self.marker || transaction.signedRenewalInfo?.first == Self.marker
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
    guard let jws, jws.first == Self.marker, let dot = jws.firstIndex(of: ".") else { return Field(value: jws) }
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
