import Foundation

/// The protected header of a JWS, as far as StoreKit uses it.
public struct JWSHeader: Sendable, Equatable, Codable {
  public var alg: String?
  public var typ: String?
  public var kid: String?
  /// Certificates, leaf first, each standard base64 of DER.
  public var x5c: [String]?

  public init(alg: String? = nil, typ: String? = nil, kid: String? = nil, x5c: [String]? = nil) {
    self.alg = alg
    self.typ = typ
    self.kid = kid
    self.x5c = x5c
  }
}

/// Why a string is not a compact JWS.
public enum JWSDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not three dot-separated segments.
  case segmentCount(Int)
  /// A segment is not base64url; `segment` is "header", "payload" or "signature".
  case invalidBase64(segment: String)
  /// The header or payload is not a JSON object.
  case invalidJSON(segment: String)

  public var description: String {
    switch self {
    case .segmentCount(let count):
      "malformed JWS: expected 3 dot-separated segments, found \(count)"
    case .invalidBase64(let segment):
      "malformed JWS: the \(segment) is not base64url"
    case .invalidJSON(let segment):
      "malformed JWS: the \(segment) is not a JSON object"
    }
  }
}

/// A compact JWS (`header.payload.signature`) split and decoded, without any verification.
///
/// Used to show a signed transaction (the TUI, `storefront verify`) and as the first step of
/// verification.
public struct CompactJWS: Sendable, Equatable {
  public var header: JWSHeader
  /// The decoded header JSON bytes.
  public var headerData: Data
  /// The decoded payload JSON bytes, exactly as signed.
  public var payloadData: Data
  /// The decoded signature (raw `r||s` for ES256).
  public var signature: Data
  /// The ASCII bytes `header.payload` that the signature covers.
  public var signingInput: Data

  /// Splits and decodes `text`; surrounding whitespace is ignored.
  public init(_ text: String) throws {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw JWSDecodingError.segmentCount(parts.count) }
    let names = ["header", "payload", "signature"]
    var decoded: [Data] = []
    for (part, name) in zip(parts, names) {
      // Reject padding and standard-base64 characters: JWS segments are strict base64url.
      guard part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }),
        let data = Data(base64URLEncoded: part)
      else { throw JWSDecodingError.invalidBase64(segment: name) }
      decoded.append(data)
    }
    guard (try? JSONSerialization.jsonObject(with: decoded[0])) is [String: Any],
      let header = try? JSONDecoder().decode(JWSHeader.self, from: decoded[0])
    else { throw JWSDecodingError.invalidJSON(segment: "header") }
    guard (try? JSONSerialization.jsonObject(with: decoded[1])) is [String: Any] else {
      throw JWSDecodingError.invalidJSON(segment: "payload")
    }
    self.header = header
    headerData = decoded[0]
    payloadData = decoded[1]
    signature = decoded[2]
    signingInput = Data("\(parts[0]).\(parts[1])".utf8)
  }

  /// The payload JSON as text, exactly as signed.
  public var payloadJSON: String { String(decoding: payloadData, as: UTF8.self) }

  /// The payload JSON indented with sorted keys, for display.
  public var prettyPayloadJSON: String { Self.pretty(payloadData) }

  /// The header JSON indented with sorted keys, for display.
  public var prettyHeaderJSON: String { Self.pretty(headerData) }

  /// A number field of the payload (`signedDate`, `price`, …), if present and numeric.
  public func payloadNumber(_ key: String) -> Double? {
    guard let object = try? JSONSerialization.jsonObject(with: payloadData) as? [String: Any] else { return nil }
    return (object[key] as? NSNumber)?.doubleValue
  }

  /// A string field of the payload (`bundleId`, `environment`, …), if present and a string.
  public func payloadString(_ key: String) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: payloadData) as? [String: Any] else { return nil }
    return object[key] as? String
  }

  /// Decodes the payload into `type` (``JWSTransactionPayload``, ``JWSRenewalInfoPayload``).
  public func decodePayload<Payload: Decodable>(as type: Payload.Type) throws -> Payload {
    try JSONDecoder().decode(type, from: payloadData)
  }

  private static func pretty(_ data: Data) -> String {
    guard let object = try? JSONSerialization.jsonObject(with: data),
      let text = try? JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else { return String(decoding: data, as: UTF8.self) }
    return String(decoding: text, as: UTF8.self)
  }
}
