import Foundation
import StorefrontProcessTestSupport

/// Debian's `wrk` (scripts/setup installs it): a fixed number of keep-alive connections for a fixed
/// time against one URL, reporting requests per second.
enum Wrk {
  static let path = "/usr/bin/wrk"
  static let threads = 2
  static let connections = 8

  /// Requests per second over `seconds`; throws if any answer was not 2xx or a socket failed.
  static func requestsPerSecond(url: String, header: String?, seconds: Int) throws -> Double {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw BenchError.failed("\(path) is missing (scripts/setup installs Debian's wrk)")
    }
    var arguments = ["-t\(threads)", "-c\(connections)", "-d\(seconds)s"]
    if let header { arguments += ["-H", header] }
    let result = try ChildProcess.run(path, arguments + [url], timeout: Double(seconds) + 30)
    guard result.status == 0, !result.signalled else { throw BenchError.failed("wrk failed: \(result.summary)") }
    let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    if let bad = lines.first(where: { $0.hasPrefix("Non-2xx or 3xx responses") || $0.hasPrefix("Socket errors") }) {
      throw BenchError.failed("wrk against \(url): \(bad)")
    }
    guard let line = lines.first(where: { $0.hasPrefix("Requests/sec:") }),
      let value = line.split(separator: " ").last.flatMap({ Double($0) })
    else { throw BenchError.failed("wrk printed no Requests/sec: \(result.stdout.prefix(400))") }
    return value
  }

  /// What one run measured.
  struct Measured {
    var requestsPerSecond: Double
    var p99Milliseconds: Double
  }

  /// Like ``requestsPerSecond(url:header:seconds:)`` with a Lua `script` (a POST body) and `--latency`.
  static func run(url: String, header: String?, seconds: Int, script: String?) throws -> Measured {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw BenchError.failed("\(path) is missing (scripts/setup installs Debian's wrk)")
    }
    var arguments = ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency"]
    if let header { arguments += ["-H", header] }
    if let script { arguments += ["-s", script] }
    let result = try ChildProcess.run(path, arguments + [url], timeout: Double(seconds) + 30)
    guard result.status == 0, !result.signalled else { throw BenchError.failed("wrk failed: \(result.summary)") }
    let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    if let bad = lines.first(where: { $0.hasPrefix("Non-2xx or 3xx responses") || $0.hasPrefix("Socket errors") }) {
      throw BenchError.failed("wrk against \(url): \(bad)")
    }
    guard let rate = lines.first(where: { $0.hasPrefix("Requests/sec:") })?.split(separator: " ").last.flatMap({ Double($0) }),
      let p99 = lines.first(where: { $0.hasPrefix("99%") })?.split(separator: " ").last.flatMap(milliseconds)
    else { throw BenchError.failed("wrk printed no Requests/sec or 99%: \(result.stdout.prefix(600))") }
    return Measured(requestsPerSecond: rate, p99Milliseconds: p99)
  }

  /// `1.23ms`, `850.00us`, `1.20s` in milliseconds.
  private static func milliseconds(_ text: Substring) -> Double? {
    for (suffix, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(suffix) {
      return Double(text.dropLast(suffix.count)).map { $0 * scale }
    }
    return nil
  }
}
