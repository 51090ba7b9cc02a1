import Foundation

/// One `--json` output line: an ``EventRecord``'s fields and `event`, plus `time` (virtual, ISO
/// 8601) and `line` (the scenario line that caused it; left out for what a launch delivers).
struct EventLine: Sendable, Equatable, Codable {
  var record: EventRecord
  var time: String
  var line: Int?

  private enum CodingKeys: String, CodingKey {
    case time, line
  }

  init(record: EventRecord, time: String, line: Int?) {
    self.record = record
    self.time = time
    self.line = line
  }

  func encode(to encoder: any Encoder) throws {
    try record.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(time, forKey: .time)
    try container.encodeIfPresent(line, forKey: .line)
  }

  init(from decoder: any Decoder) throws {
    record = try EventRecord(from: decoder)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    time = try container.decode(String.self, forKey: .time)
    line = try container.decodeIfPresent(Int.self, forKey: .line)
  }

  /// Compact JSON with the keys sorted and `/` left alone: the format `--json` has always had.
  static func json(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}
