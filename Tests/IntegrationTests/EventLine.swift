import Foundation
import StoreEngine
import XCTest

/// One `--json` output line, parsed with Foundation's JSONSerialization.
struct EventLine {
  static let transactionEvents: Set<String> = ["transactionUpdated", "transactionRemoved", "transactionRevoked"]
  static let signedFields = ["signedTransaction", "signedRenewalInfo"]

  /// 1-based line number in the output.
  var number: Int
  var text: String
  var object: [String: Any]

  var event: String? { object["event"] as? String }
  var state: String? { object["state"] as? String }
  var transactionID: String? { object["transactionId"] as? String }
  var productID: String? { object["productId"] as? String }
  var scenarioLine: Int? { object["line"] as? Int }
  var isTransaction: Bool { event.map(Self.transactionEvents.contains) ?? false }
  var errorName: String? { (object["error"] as? [String: Any])?["name"] as? String }

  /// Every line of `output` as a JSON object; a line that is not one fails the test.
  static func parse(_ output: String, source: String, file: StaticString = #filePath, line: UInt = #line) -> [EventLine] {
    var events: [EventLine] = []
    for (index, text) in output.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !text.isEmpty {
      guard let data = text.data(using: .utf8),
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
      else {
        XCTFail("\(source): output line \(index + 1) is not a JSON object: \(text.prefix(200))", file: file, line: line)
        continue
      }
      events.append(EventLine(number: index + 1, text: String(text), object: object))
    }
    return events
  }

  /// The line with the signature (third JWS segment) of every signed field emptied, re-encoded with
  /// sorted keys. With `dropCertificates`, the JWS header's x5c chain is dropped too (each fresh data
  /// directory makes its own CA), keeping the header's other fields.
  func withoutSignatures(dropCertificates: Bool = false) -> String {
    Self.encode(Self.withoutSignatures(object, dropCertificates: dropCertificates))
  }

  /// `object` with every signature replaced, also in nested objects and arrays (the StoreKit 2
  /// view lists transactions and subscription statuses).
  static func withoutSignatures(_ object: [String: Any], dropCertificates: Bool) -> [String: Any] {
    var copy = object
    for (key, value) in object {
      if let nested = value as? [String: Any] {
        copy[key] = withoutSignatures(nested, dropCertificates: dropCertificates)
      } else if let list = value as? [[String: Any]] {
        copy[key] = list.map { withoutSignatures($0, dropCertificates: dropCertificates) }
      }
    }
    for key in signedFields {
      guard let jws = copy[key] as? String else { continue }
      var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 3 else { continue }
      parts[2] = "<signature>"
      if dropCertificates, var header = jsonSegment(parts[0]) {
        header["x5c"] = (header["x5c"] as? [Any]).map { "<\($0.count) certificates>" }
        parts[0] = encode(header)
      }
      copy[key] = parts.joined(separator: ".")
    }
    return copy
  }

  static func encode(_ object: [String: Any]) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "<unencodable>" }
    return String(decoding: data, as: UTF8.self)
  }

  /// A base64url JWS segment (header or payload) decoded as a JSON object.
  static func jsonSegment(_ text: some StringProtocol) -> [String: Any]? {
    Data(base64URLEncoded: Substring(text)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
  }
}
