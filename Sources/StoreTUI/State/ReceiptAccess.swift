import Foundation

/// How the TUI reaches the app receipt, which the composition root builds (OpenSSL, the CA): the
/// decoded text for the reader sheet and the signed DER for an export. Both throw an error whose
/// description says what went wrong.
public struct ReceiptAccess {
  /// The account's receipt now, decoded: a sheet title and its lines.
  public var decoded: (_ account: String) throws -> (title: String, lines: [String])
  /// The account's receipt now, PKCS#7 DER.
  public var receipt: (_ account: String) throws -> Data

  public init(
    decoded: @escaping (_ account: String) throws -> (title: String, lines: [String]),
    receipt: @escaping (_ account: String) throws -> Data
  ) {
    self.decoded = decoded
    self.receipt = receipt
  }
}
