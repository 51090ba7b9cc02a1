import Foundation

/// Builds bearer tokens for the tests: any header and claims, signed by a caller's ES256 function
/// (raw `r||s`, e.g. SandboxSigning's `PrivateKey.signES256`), so this target needs no OpenSSL.
public struct TestToken {
  public var header: [String: Any]
  public var claims: [String: Any]

  /// Apple's token for `keyID` and `issuerID`: ES256, `aud` `appstoreconnect-v1`, `bid`, `exp`, and `iat` when given.
  public init(keyID: String?, issuerID: String, bundleID: String = "com.example.storefront", expires: Double, issued: Double? = nil) {
    header = ["alg": "ES256", "typ": "JWT"]
    header["kid"] = keyID
    claims = ["iss": issuerID, "aud": "appstoreconnect-v1", "bid": bundleID, "exp": expires]
    claims["iat"] = issued
  }

  /// `header.payload.signature`, compact form.
  public func signed(by sign: (Data) throws -> Data) throws -> String {
    let input = try Self.part(header) + "." + Self.part(claims)
    return input + "." + Self.base64URL(try sign(Data(input.utf8)))
  }

  private static func part(_ object: [String: Any]) throws -> String {
    base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
  }

  /// Unpadded base64url.
  public static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}
