import Foundation

/// Where a fresh ledger's virtual clock starts (`--clock-start DATE|now`, `$STOREFRONT_CLOCK_START`).
///
/// The clock belongs to the ledger: once it holds one, every front end continues from it, and a
/// start applies only to a ledger that has none yet.
public enum ClockStart: Sendable, Equatable {
  /// A fixed moment, so that a scenario on a fresh data directory replays identically.
  case date(Date)
  /// The wall clock when the command starts.
  case now

  /// 2026-01-01T00:00:00Z: where `run`, `serve` and `notifications url` start a fresh ledger.
  public static let scenarioEpoch = ClockStart.date(Date(timeIntervalSince1970: 1_767_225_600))

  /// `now`, a day (`2026-03-01`, midnight UTC) or an ISO 8601 moment with its zone
  /// (`2026-03-01T09:30:00Z`, `2026-03-01T18:30:00+09:00`); nil for anything else.
  public init?(parsing text: String) {
    if text.lowercased() == "now" {
      self = .now
      return
    }
    let moment = ISO8601DateFormatter()
    moment.formatOptions = [.withInternetDateTime]
    let withFraction = ISO8601DateFormatter()
    withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let day = ISO8601DateFormatter()
    day.formatOptions = [.withFullDate]
    day.timeZone = TimeZone(identifier: "UTC")
    guard let date = moment.date(from: text) ?? withFraction.date(from: text) ?? (text.count == 10 ? day.date(from: text) : nil) else {
      return nil
    }
    self = .date(date)
  }

  /// The moment it names, `now` being the wall clock's.
  public func resolved(now: Date) -> Date {
    switch self {
    case .date(let date): date
    case .now: now
    }
  }

  /// As the option would give it: `now`, or the moment in ISO 8601 (UTC).
  var text: String {
    switch self {
    case .date(let date): ClockChoice.text(date)
    case .now: "now"
    }
  }

  /// The help line for the option and the variable.
  static let help =
    "Where a fresh ledger's virtual clock starts: 'now' or a date (2026-03-01, 2026-03-01T09:30:00Z); default $STOREFRONT_CLOCK_START, else 2026-01-01T00:00:00Z for run, serve, notifications url, offer-codes and retention review and now for the interactive storefront. A ledger that has a clock keeps it: every front end continues from there (--clock-start is then refused)."
}

/// The start one command asks for, resolved to a moment once (so the TUI and its `--serve` agree),
/// and who chose it: a start given on the command line for a ledger that already has a clock is
/// refused, one from the environment or the front end's default gives way to the ledger's.
struct ClockChoice: Equatable {
  enum Source: Equatable {
    /// `--clock-start`, with the text given.
    case option(String)
    case environment
    case frontEndDefault
  }

  var date: Date
  var source: Source

  /// `--clock-start`, else `$STOREFRONT_CLOCK_START` (a bad value is a configuration error, 78),
  /// else `defaultStart`.
  static func resolve(
    _ global: GlobalOptions, environment: [String: String], default defaultStart: ClockStart, now: Date = Date()
  ) throws(CLIFailure) -> ClockChoice {
    if let option = global.clockStart {
      return ClockChoice(date: option.resolved(now: now), source: .option(option.text))
    }
    if let text = environment["STOREFRONT_CLOCK_START"], !text.isEmpty {
      guard let start = ClockStart(parsing: text) else {
        throw CLIFailure(
          "$STOREFRONT_CLOCK_START is '\(text)', not a clock start: set it to 'now' or a date such as 2026-03-01 or 2026-03-01T09:30:00Z, or unset it.",
          .configuration)
      }
      return ClockChoice(date: start.resolved(now: now), source: .environment)
    }
    return ClockChoice(date: defaultStart.resolved(now: now), source: .frontEndDefault)
  }

  /// This choice as a second store of the same command opens it (the TUI's `--serve`): the first
  /// may already have recorded it, so it never refuses.
  var followed: ClockChoice { ClockChoice(date: date, source: .frontEndDefault) }

  /// Where the store's clock starts: the ledger's own when it has one, else this choice.
  ///
  /// - Throws: a usage error (64) when `--clock-start` was given and the ledger already has a clock.
  func start(ledgerClock: Date?, ledgerName: String) throws(CLIFailure) -> Date {
    guard let ledgerClock else { return date }
    if case .option(let text) = source {
      throw CLIFailure(
        "--clock-start \(text) applies only to a fresh ledger, and \(ledgerName) already has a clock (at \(Self.text(ledgerClock))), which every front end continues from. Leave --clock-start out, or use a new --data-dir.",
        .usage)
    }
    return ledgerClock
  }

  static func text(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}
