import Foundation
import SimulatedApp
import StoreEngine

/// Turns engine events into output lines: JSON objects (one a line) or readable text like the
/// `print` lines of the seeds' observer code.
public struct EventFormatter: Sendable {
  /// Whether lines are JSON objects (`--json`) rather than text.
  public var json: Bool

  /// A formatter of JSON lines (`json`) or text lines.
  public init(json: Bool) { self.json = json }

  /// The lines for one event (a batch of transactions gives one line each). Clock ticks print nothing.
  ///
  /// - Parameters:
  ///   - time: when it happened (virtual time), the `time` of the line.
  ///   - line: the scenario line that caused it, if any.
  public func lines(for event: StoreEvent, at time: Date, line: Int? = nil) -> [String] {
    lines(for: EventRecord.records(for: event), at: time, line: line)
  }

  /// The line of the simulated app's call to its server (`appServerCall`).
  public func lines(for answer: AppServerAnswer, at time: Date, line: Int? = nil) -> [String] {
    lines(for: [.appServerCall(EventRecord.AppServerCall(answer))], at: time, line: line)
  }

  /// The lines of records made already (the runner also reads their names).
  func lines(for records: [EventRecord], at time: Date, line: Int?) -> [String] {
    // Most events of an idle TUI's tick (the clock's) have no line: no timestamp is formatted for them.
    guard !records.isEmpty else { return [] }
    let timestamp = Self.timestamp(time)
    return records.map { record in
      json ? EventLine.json(EventLine(record: record, time: timestamp, line: line)) : "[\(timestamp)] \(record.text)"
    }
  }

  /// One transaction as a JSON object line: the `transactionUpdated` fields, `finished`, and the
  /// price (`price`, `currency`) when something was charged or it is purchased.
  public static func json(of transaction: PaymentTransaction) -> String {
    EventLine.json(EventRecord.Transaction(listing: transaction))
  }

  /// ISO 8601 UTC, seconds precision.
  public static func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
  }
}
