import Foundation
import SandboxSigning

/// Builds bearer tokens for the tests: any header and claims, signed ES256 with any key.
struct TestToken {
  var header: [String: Any]
  var claims: [String: Any]

  init(keyID: String?, issuerID: String, bundleID: String = "com.example.storefront", expires: Double, issued: Double? = nil) {
    header = ["alg": "ES256", "typ": "JWT"]
    header["kid"] = keyID
    claims = ["iss": issuerID, "aud": "appstoreconnect-v1", "bid": bundleID, "exp": expires]
    claims["iat"] = issued
  }

  /// `header.payload.signature`, compact form.
  func signed(with key: PrivateKey) throws -> String {
    let input = try Self.part(header) + "." + Self.part(claims)
    return input + "." + Self.base64URL(try key.signES256(Data(input.utf8)))
  }

  private static func part(_ object: [String: Any]) throws -> String {
    base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
  }

  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}
