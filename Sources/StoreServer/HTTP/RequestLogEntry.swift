import Foundation

/// One line of the request log: what `storefront serve` prints per request.
public struct RequestLogEntry: Sendable, Equatable {
  /// When the request arrived.
  public var date: Date
  public var method: String
  public var path: String
  public var status: Int
  /// From the request's arrival to its answer being queued.
  public var latencyNanoseconds: UInt64
  /// The verified key's id; nil when the token was missing or rejected.
  public var keyID: String?
  /// The decoded token and the response body, when the handler recorded them; never printed by ``line`` or ``jsonLine``.
  public var details: RequestDetails?

  public init(
    date: Date, method: String, path: String, status: Int, latencyNanoseconds: UInt64, keyID: String?, details: RequestDetails? = nil
  ) {
    self.date = date
    self.method = method
    self.path = path
    self.status = status
    self.latencyNanoseconds = latencyNanoseconds
    self.keyID = keyID
    self.details = details
  }

  /// `2026-01-01T00:00:00.000Z GET /inApps/v1/transactions/1 200 0.42ms key=ABCDE12345`.
  public var line: String {
    "\(Self.timestamp(date)) \(method) \(path) \(status) \(latencyText) key=\(keyID ?? "-")"
  }

  /// The same fields as one JSON object (sorted keys).
  public var jsonLine: String {
    var object: [String: Any] = [
      "time": Self.timestamp(date), "method": method, "path": path, "status": status,
      "latencyMs": Double(latencyNanoseconds / 1_000) / 1_000,
    ]
    object["keyId"] = keyID ?? NSNull()
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  private var latencyText: String {
    String(format: "%.2fms", Double(latencyNanoseconds) / 1_000_000)
  }

  private static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }
}
