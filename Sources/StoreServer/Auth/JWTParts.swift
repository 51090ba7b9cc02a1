import Foundation

/// A compact JWS split and decoded, not yet trusted.
struct JWTParts {
  struct Header: Decodable {
    var alg: String?
    var kid: String?
    var typ: String?
  }

  struct Claims: Decodable {
    var iss: String?
    var aud: Audience?
    var bid: String?
    var exp: Double?
    var iat: Double?
  }

  /// `aud` as one string or an array of them (JWT allows both).
  struct Audience: Decodable {
    var values: [String]

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let one = try? container.decode(String.self) {
        values = [one]
      } else {
        values = try container.decode([String].self)
      }
    }
  }

  var header: Header
  var claims: Claims
  /// `header.payload`, the bytes the signature covers.
  var signingInput: Data
  var signature: Data

  /// Nil unless `token` is three base64url parts whose first two are JSON objects of the right types.
  init?(_ token: Substring) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
      let signature = Self.base64URL(parts[2]),
      let header = try? JSONDecoder().decode(Header.self, from: headerData),
      let claims = try? JSONDecoder().decode(Claims.self, from: claimsData)
    else { return nil }
    self.header = header
    self.claims = claims
    self.signingInput = Data("\(parts[0]).\(parts[1])".utf8)
    self.signature = signature
  }

  private static func base64URL(_ text: Substring) -> Data? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0.isBase64URLCharacter }) else { return nil }
    var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while standard.count % 4 != 0 { standard += "=" }
    return Data(base64Encoded: standard)
  }
}

extension UInt8 {
  fileprivate var isBase64URLCharacter: Bool {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
  }
}
