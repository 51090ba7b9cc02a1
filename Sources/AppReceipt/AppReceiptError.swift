import StoreEngine

/// Why an app receipt could not be made.
public enum AppReceiptError: Error, Equatable, CustomStringConvertible {
  /// The account's history could not be read.
  case ledger(LedgerError)
  /// OpenSSL could not encode the receipt's ASN.1.
  case encoding(String)
  /// OpenSSL could not sign it with the sandbox CA.
  case signing(String)

  public var description: String {
    switch self {
    case .ledger(let error): "The app receipt could not be made: \(error)"
    case .encoding(let detail): "The app receipt could not be encoded: \(detail)"
    case .signing(let detail): "The app receipt could not be signed with the sandbox CA: \(detail). Check the data directory's ca/ folder, or recreate it with `storefront certificate --regenerate-ca`."
    }
  }
}
