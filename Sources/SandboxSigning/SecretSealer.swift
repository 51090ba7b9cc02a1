import COpenSSL
import Foundation

/// Encrypts private keys at rest with AES-256-GCM (OpenSSL EVP): what a shared database stores
/// instead of the PEM. A sealed value is `sf1:` + base64(12-byte nonce ‖ ciphertext ‖ 16-byte tag),
/// with the item's name as associated data, so a value copied to another name does not open.
public struct SecretSealer: Sendable {
  /// Why a value could not be sealed or opened.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// The key-encryption key is not 32 bytes (64 hexadecimal digits or 44 base64 characters).
    case badKey(source: String)
    /// The value was sealed with another key, or altered.
    case wrongKey(item: String)
    case openSSL(String)

    public var description: String {
      switch self {
      case .badKey(let source):
        "the key-encryption key in \(source) is not 32 bytes; write 64 hexadecimal digits (`openssl rand -hex 32`)"
      case .wrongKey(let item):
        "'\(item)' cannot be decrypted with this key-encryption key: it was stored with another one (or altered); use the team's key"
      case .openSSL(let detail): detail
      }
    }
  }

  private static let prefix = "sf1:"
  private let key: [UInt8]

  /// A sealer for a 32-byte key written as 64 hexadecimal digits or base64; `source` names where it
  /// came from, for the error (never the key itself).
  public init(text: String, source: String) throws(Failure) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.count == 64, let bytes = Self.hexBytes(trimmed) {
      key = bytes
    } else if let data = Data(base64Encoded: trimmed), data.count == 32 {
      key = [UInt8](data)
    } else {
      throw .badKey(source: source)
    }
  }

  /// Whether `text` is a sealed value (rather than a plain PEM).
  public static func isSealed(_ text: String) -> Bool { text.hasPrefix(prefix) }

  /// `plaintext` sealed for item `name`.
  public func seal(_ plaintext: Data, name: String) throws(Failure) -> String {
    var nonce = [UInt8](repeating: 0, count: 12)
    guard RAND_bytes(&nonce, 12) == 1 else { throw .openSSL("\(OpenSSLError.capture("drawing a nonce"))") }
    var output = [UInt8](repeating: 0, count: plaintext.count + 16)
    var tag = [UInt8](repeating: 0, count: 16)
    let written = try crypt(encrypt: true, nonce: nonce, input: [UInt8](plaintext), output: &output, tag: &tag, name: name)
    return Self.prefix + Data(nonce + output.prefix(written) + tag).base64EncodedString()
  }

  /// The plaintext of `sealed`, stored under `name`.
  public func open(_ sealed: String, name: String) throws(Failure) -> Data {
    guard sealed.hasPrefix(Self.prefix), let data = Data(base64Encoded: String(sealed.dropFirst(Self.prefix.count))), data.count >= 28
    else { throw .wrongKey(item: name) }
    let bytes = [UInt8](data)
    let nonce = Array(bytes[0..<12])
    var tag = Array(bytes[(bytes.count - 16)...])
    let input = Array(bytes[12..<(bytes.count - 16)])
    var output = [UInt8](repeating: 0, count: input.count + 16)
    let written = try crypt(encrypt: false, nonce: nonce, input: input, output: &output, tag: &tag, name: name)
    return Data(output.prefix(written))
  }

  private func crypt(
    encrypt: Bool, nonce: [UInt8], input: [UInt8], output: inout [UInt8], tag: inout [UInt8], name: String
  ) throws(Failure) -> Int {
    OpenSSLError.clearQueue()
    guard let context = EVP_CIPHER_CTX_new() else { throw .openSSL("\(OpenSSLError.capture("allocating a cipher"))") }
    defer { EVP_CIPHER_CTX_free(context) }
    let initialize = encrypt ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
    guard initialize(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
      EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, 12, nil) == 1,
      initialize(context, nil, nil, key, nonce) == 1
    else { throw .openSSL("\(OpenSSLError.capture("setting up AES-256-GCM"))") }
    let update = encrypt ? EVP_EncryptUpdate : EVP_DecryptUpdate
    var length: Int32 = 0
    let associated = [UInt8](name.utf8)
    guard update(context, nil, &length, associated, Int32(associated.count)) == 1,
      update(context, &output, &length, input, Int32(input.count)) == 1
    else { throw .openSSL("\(OpenSSLError.capture("running AES-256-GCM"))") }
    var total = Int(length)
    if encrypt {
      guard output.withUnsafeMutableBufferPointer({ EVP_EncryptFinal_ex(context, $0.baseAddress.map { $0 + total }, &length) }) == 1,
        EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1
      else { throw .openSSL("\(OpenSSLError.capture("sealing with AES-256-GCM"))") }
    } else {
      guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, &tag) == 1,
        output.withUnsafeMutableBufferPointer({ EVP_DecryptFinal_ex(context, $0.baseAddress.map { $0 + total }, &length) }) == 1
      else {
        OpenSSLError.clearQueue()
        throw .wrongKey(item: name)
      }
    }
    total += Int(length)
    return total
  }

  private static func hexBytes(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let high = iterator.next(), let low = iterator.next() {
      guard let h = hexValue(high), let l = hexValue(low) else { return nil }
      bytes.append(h << 4 | l)
    }
    return bytes
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
