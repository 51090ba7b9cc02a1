import Foundation

/// Repeated measurements of one quantity: the median is the figure, the range its spread.
struct Sample {
  var values: [Double]
  /// What the values are in (`ms`, `cycles/s`, …), for the human-readable report.
  var unit: String

  var median: Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  var minimum: Double { values.min() ?? .nan }
  var maximum: Double { values.max() ?? .nan }

  /// Half the range as a percentage of the median: "± x %".
  var spreadPercent: Double {
    let median = median
    guard median != 0, !values.isEmpty else { return 0 }
    return (maximum - minimum) / 2 / abs(median) * 100
  }

  var summary: String {
    "\(Format.number(median)) \(unit) ± \(Format.number(spreadPercent, digits: 1)) % (n=\(values.count), min \(Format.number(minimum)), max \(Format.number(maximum)))"
  }

  var json: [String: Any] {
    ["median": median, "min": minimum, "max": maximum, "spread_percent": spreadPercent, "n": values.count, "unit": unit]
  }
}

/// Wall-clock timing on the monotonic clock.
enum Stopwatch {
  static func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Seconds `body` took.
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = nanoseconds()
    try body()
    return Double(nanoseconds() - start) / 1e9
  }

  /// User + system CPU seconds this process has used: on 2 shared cores, the part of a wall time
  /// that other processes' load does not inflate (much).
  static func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }
}

enum Format {
  static func number(_ value: Double, digits: Int? = nil) -> String {
    guard value.isFinite else { return "n/a" }
    let places = digits ?? (abs(value) >= 100 ? 0 : abs(value) >= 1 ? 2 : 4)
    return String(format: "%.\(places)f", value)
  }
}
