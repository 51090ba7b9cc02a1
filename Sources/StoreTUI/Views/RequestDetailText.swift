import Foundation
import StoreEngine

/// A server request as the request sheet reads: the request, the bearer token's header and claims
/// (decoded, never the token or its signature), the response body pretty-printed, then every signed
/// field of the body decoded.
enum RequestDetailText {
  /// Signed fields decoded at most, so a big page stays a sheet one can scroll.
  static let decodedLimit = 50

  /// `GET /inApps/v1/transactions/1 → 200`.
  static func title(_ request: ServerRequest) -> String {
    "\(request.method) \(request.path) → \(request.status)"
  }

  static func lines(_ request: ServerRequest) -> [String] {
    var lines = ["Request #\(request.number)"]
    lines.append("  \(request.method) \(request.path)\(request.query.isEmpty ? "" : "?" + request.query)")
    lines.append("  at \(ServerView.time(request.date)) UTC, answered \(request.status) in \(request.latencyText)")
    lines.append("")
    lines += tokenLines(request)
    lines.append("")
    lines += bodyLines(request)
    return lines
  }

  private static func tokenLines(_ request: ServerRequest) -> [String] {
    var lines: [String] = []
    if let rejection = request.rejection {
      lines.append("Token refused: \(rejection) (the client got Apple's 401)")
    } else if request.keyID != nil {
      lines.append("Token accepted: key \(request.keyID ?? "")")
    }
    guard let token = request.token else {
      lines.append(request.rejection == nil && request.keyID == nil ? "Token: not recorded" : "Token: none that decodes")
      return lines
    }
    lines.append("Token header")
    lines.append("  alg  \(token.algorithm ?? "-")")
    lines.append("  kid  \(token.keyID ?? "-")")
    if let type = token.type { lines.append("  typ  \(type)") }
    lines.append("Token claims")
    lines.append("  iss  \(token.issuer ?? "-")")
    lines.append("  aud  \(token.audience.isEmpty ? "-" : token.audience.joined(separator: ", "))")
    lines.append("  bid  \(token.bundleID ?? "-")")
    lines.append("  iat  \(seconds(token.issuedAt))")
    lines.append("  exp  \(seconds(token.expires))")
    lines.append("  (the signature is not shown)")
    return lines
  }

  private static func seconds(_ value: Double?) -> String {
    guard let value else { return "-" }
    let whole = value.rounded(.down) == value ? String(Int64(value)) : String(value)
    return "\(whole)  (\(DateText.full(Date(timeIntervalSince1970: value))))"
  }

  private static func bodyLines(_ request: ServerRequest) -> [String] {
    let kind = request.contentType.isEmpty ? "" : "\(request.contentType), "
    var lines = ["Response body (\(kind)\(request.bodySize) bytes)"]
    if request.bodySize > request.body.count {
      lines.append("  (only the first \(request.body.count) bytes are kept)")
    }
    guard !request.body.isEmpty else { return lines + ["  (empty)"] }
    guard request.bodySize == request.body.count,
      let object = try? JSONSerialization.jsonObject(with: request.body, options: [.fragmentsAllowed]),
      let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else {
      return lines + String(decoding: request.body, as: UTF8.self).components(separatedBy: "\n").map { "  " + $0 }
    }
    lines += String(decoding: pretty, as: UTF8.self).components(separatedBy: "\n")
    var decoded: [(String, CompactJWS)] = []
    collectSigned(object, path: "", into: &decoded)
    for (path, jws) in decoded {
      lines.append("")
      lines.append("Decoded \(path)")
      lines += jws.prettyPayloadJSON.components(separatedBy: "\n")
    }
    return lines
  }

  /// Every string in `value` that is a compact JWS, with its path (`data[0].lastTransactions[1].signedTransactionInfo`).
  private static func collectSigned(_ value: Any, path: String, into found: inout [(String, CompactJWS)]) {
    guard found.count < decodedLimit else { return }
    switch value {
    case let object as [String: Any]:
      for key in object.keys.sorted() {
        collectSigned(object[key] ?? NSNull(), path: path.isEmpty ? key : "\(path).\(key)", into: &found)
      }
    case let array as [Any]:
      for (index, element) in array.enumerated() { collectSigned(element, path: "\(path)[\(index)]", into: &found) }
    case let text as String:
      if text.split(separator: ".", omittingEmptySubsequences: false).count == 3, let jws = try? CompactJWS(text) {
        found.append((path, jws))
      }
    default:
      break
    }
  }
}
