/// Why a `keys` command failed.
public enum APIKeyStoreError: Error, Equatable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case unwritable(path: String, reason: String)
  case unknownKey(String)
  case duplicateKey(String)
  case invalidKeyID(String)
  case invalidIssuerID(String)
  /// The file is not a PEM P-256 private key.
  case notAP256Key(path: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): return "cannot read '\(path)': \(reason)"
    case .unwritable(let path, let reason): return "cannot write '\(path)': \(reason)"
    case .unknownKey(let id): return "no API key '\(id)' is registered here (this data directory, or the shared ledger's keys); `storefront keys list` shows them"
    case .duplicateKey(let id): return "an API key '\(id)' is already registered"
    case .invalidKeyID(let id): return "'\(id)' is not a key id: App Store Connect's are 10 upper-case letters and digits"
    case .invalidIssuerID(let id): return "'\(id)' is not an issuer id: App Store Connect's is a UUID"
    case .notAP256Key(let path): return "'\(path)' is not a PEM P-256 private key (an App Store Connect .p8 file)"
    }
  }
}
