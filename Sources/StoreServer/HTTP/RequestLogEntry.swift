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

  /// ISO 8601 in UTC with milliseconds, by hand: a Foundation formatter opens an ICU formatter per
  /// call, which took ~40 % of serve's time per request (profiled under wrk).
  static func timestamp(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    let (whole, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    var seconds = time_t(fraction < 0 ? whole - 1 : whole)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func padded(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let date = "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
    let time = "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))"
    return "\(date)T\(time).\(padded(Int32(fraction < 0 ? fraction + 1000 : fraction), 3))Z"
  }
}
