import Foundation

/// How every response body is written: compact JSON, sorted keys, unescaped slashes (JWS and URLs stay
/// as they are), nil fields left out as Apple leaves them out.
enum ResponseEncoding {
  static func encode<Value: Encodable>(_ value: Value) throws -> Data { try encoder.encode(value) }

  /// A 200 (or `status`) with `value` as its JSON body.
  static func response<Value: Encodable>(_ value: Value, status: Int = 200) throws(APIError) -> APIResponse {
    do {
      return APIResponse(status: status, body: try encode(value))
    } catch {
      throw APIError.generalInternal
    }
  }

  // Keeps no state between calls, so one configured encoder serves every response.
  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()
}
