import Foundation

/// The one CryptoKit type StoreKit's API names (`VerificationResult.signature`), for Linux, which
/// has no CryptoKit. It carries CryptoKit's two representations, so code can hand
/// `rawRepresentation` to swift-crypto's `P256.Signing.ECDSASignature(rawRepresentation:)`.
/// A file that also imports swift-crypto's `Crypto` writes `StoreKit.P256` where it names the type.
public enum P256 {
  /// ECDSA over P-256 with SHA-256 (JWS `ES256`).
  public enum Signing {
    /// An ECDSA signature: the integers `r` and `s`.
    public struct ECDSASignature: Sendable, Hashable {
      /// `r` then `s`, 32 bytes each (the JWS form).
      public let rawRepresentation: Data

      /// A signature from its raw form (64 bytes).
      public init<D: DataProtocol>(rawRepresentation: D) throws {
        guard rawRepresentation.count == 64 else { throw SignatureError.incorrectLength }
        self.rawRepresentation = Data(rawRepresentation)
      }

      /// A signature from its DER form (an ASN.1 `SEQUENCE` of two `INTEGER`s).
      public init<D: DataProtocol>(derRepresentation: D) throws {
        let bytes = [UInt8](derRepresentation)
        guard let raw = DER.raw(fromSequence: bytes) else { throw SignatureError.invalidDER }
        rawRepresentation = raw
      }

      /// A JWS signature's bytes as they are; an ill-formed one keeps its bytes (it fails to verify).
      init(jwsSignature: Data) { rawRepresentation = jwsSignature }

      /// The ASN.1 DER form (what OpenSSL and X.509 tooling take).
      public var derRepresentation: Data {
        guard rawRepresentation.count == 64 else { return Data() }
        let bytes = [UInt8](rawRepresentation)
        let r = DER.integer(Array(bytes[0..<32]))
        let s = DER.integer(Array(bytes[32..<64]))
        return Data([0x30] + DER.length(r.count + s.count) + r + s)
      }
    }
  }

  /// Why a signature's bytes were refused.
  enum SignatureError: Error {
    case incorrectLength
    case invalidDER
  }
}

/// The few DER rules an ECDSA signature needs.
private enum DER {
  static func length(_ count: Int) -> [UInt8] { count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)] }

  static func integer(_ magnitude: [UInt8]) -> [UInt8] {
    var value = Array(magnitude.drop(while: { $0 == 0 }))
    if value.isEmpty { value = [0] }
    if let first = value.first, first & 0x80 != 0 { value.insert(0, at: 0) }
    return [0x02] + length(value.count) + value
  }

  static func raw(fromSequence bytes: [UInt8]) -> Data? {
    var index = 0
    func readLength() -> Int? {
      guard index < bytes.count else { return nil }
      let first = bytes[index]
      index += 1
      if first < 0x80 { return Int(first) }
      guard first == 0x81, index < bytes.count else { return nil }
      defer { index += 1 }
      return Int(bytes[index])
    }
    func readInteger() -> [UInt8]? {
      guard index < bytes.count, bytes[index] == 0x02 else { return nil }
      index += 1
      guard let count = readLength(), index + count <= bytes.count else { return nil }
      let value = Array(bytes[index..<index + count].drop(while: { $0 == 0 }))
      index += count
      guard value.count <= 32 else { return nil }
      return [UInt8](repeating: 0, count: 32 - value.count) + value
    }
    guard bytes.first == 0x30 else { return nil }
    index = 1
    guard readLength() != nil, let r = readInteger(), let s = readInteger() else { return nil }
    return Data(r + s)
  }
}
