import Foundation

/// Signs payloads as compact JWS (`header.payload.signature`, base64url, ES256).
///
/// The live implementation (OpenSSL, a local sandbox CA) lives in `SandboxSigning`; tests inject a
/// deterministic one where byte-identical output matters.
public protocol TransactionSigner: Sendable {
  /// Signs the JSON `payload` bytes and returns the compact JWS.
  func sign(payload: Data) throws -> String
  /// The `environment` string to put in payloads: `Sandbox` or `Xcode`.
  var environment: String { get }
}

/// A signer that produces structurally valid JWS with a fixed, fake signature: never verifiable.
///
/// For tests and benchmarks that need byte-identical output; never used by the product.
public struct UnsignedTestSigner: TransactionSigner {
  public let environment: String
  public init(environment: String = "Sandbox") { self.environment = environment }

  public func sign(payload: Data) throws -> String {
    let header = Data(#"{"alg":"ES256","typ":"JWT","x5c":[]}"#.utf8)
    return [header, payload, Data(repeating: 0, count: 64)].map(\.base64URLEncoded).joined(separator: ".")
  }
}

extension Data {
  /// Base64url without padding, as JWS uses.
  public var base64URLEncoded: String {
    var bytes: [UInt8] = []
    withUnsafeBytes { Base64URL.append($0, to: &bytes) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Decodes base64url with or without padding.
  public init?(base64URLEncoded text: Substring) {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    self.init(base64Encoded: base64)
  }
}
