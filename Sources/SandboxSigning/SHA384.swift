import COpenSSL
import Foundation

/// SHA-384, for StoreKit's device verification (`SHA384(nonce + deviceVerificationID)`).
public enum SHA384 {
  /// The 48-byte digest of `data`; empty if OpenSSL fails.
  public static func hash(_ data: Data) -> Data {
    var digest = [UInt8](repeating: 0, count: 48)
    var length: UInt32 = 0
    let done = data.withUnsafeBytes { raw in
      EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha384(), nil)
    }
    guard done == 1 else { return Data() }
    return Data(digest.prefix(Int(length)))
  }
}
