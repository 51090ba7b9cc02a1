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
}
