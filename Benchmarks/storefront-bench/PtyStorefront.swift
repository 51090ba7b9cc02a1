import Foundation
import StorefrontProcessTestSupport

/// The real `storefront` executable, run on a pty the way a user's terminal would.
struct PtyStorefront {
  let path: String
  let environment: [String: String]
  /// This executable, which serves as the small intermediate process of ``RSSProbe``.
  let benchPath: String
  let scratch: URL

  /// `$STOREFRONT_BIN`, else `storefront` next to this executable (same build configuration; never
  /// a debug build found elsewhere).
  static func locate(scratch: URL) -> PtyStorefront? {
    guard let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
      let binary = try? StorefrontBinary.locate(overrideVariable: "STOREFRONT_BIN", searchDebugBuild: false)
    else { return nil }
    // A clean environment: a private data dir, a known terminal, UTF-8, no colour surprises.
    var environment = StorefrontBinary.isolatedEnvironment(home: scratch)
    environment["TERM"] = "xterm-256color"
    environment["LANG"] = "C.UTF-8"
    environment["STOREFRONT_DATA_DIR"] = scratch.appendingPathComponent("data").path
    return PtyStorefront(path: binary.path, environment: environment, benchPath: me, scratch: scratch)
  }

  /// Starts `storefront arguments…` on a 200×60 pty.
  func start(_ arguments: [String], columns: Int = 200, rows: Int = 60) throws -> PtyProcess {
    try PtyProcess(executable: path, arguments: arguments, environment: environment, columns: columns, rows: rows)
  }

  /// Starts `storefront arguments…` on a 200×60 pty under ``RSSProbe``; after the process ends,
  /// ``RSSProbe/read(_:)`` on the returned file gives its peak RSS.
  func startMeasuringRSS(_ arguments: [String]) throws -> (PtyProcess, resultFile: String) {
    let file = scratch.appendingPathComponent("rss-\(UUID().uuidString)").path
    let process = try PtyProcess(
      executable: benchPath, arguments: [RSSProbe.flag, file, path] + arguments, environment: environment, columns: 200, rows: 60)
    return (process, file)
  }

  /// Runs a command that prints and exits; returns milliseconds from spawn to the child's exit.
  func timeToExit(_ arguments: [String], expecting marker: String, timeout: Double = 30) throws -> Double {
    try run(start(arguments), arguments, expecting: marker, timeout: timeout)
  }

  /// Runs a command that prints and exits under ``RSSProbe``; returns its peak RSS in MB.
  func peakRSS(_ arguments: [String], expecting marker: String, timeout: Double = 30) throws -> Double {
    let (process, file) = try startMeasuringRSS(arguments)
    _ = try run(process, arguments, expecting: marker, timeout: timeout)
    return try RSSProbe.read(file)
  }

  private func run(_ process: PtyProcess, _ arguments: [String], expecting marker: String, timeout: Double) throws -> Double {
    guard process.readToEnd(timeout: timeout) != nil else {
      throw BenchError.failed("storefront \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s")
    }
    let (status, _) = try process.waitForExit()
    let milliseconds = process.elapsedMilliseconds
    guard status == 0, process.output.firstRange(of: Array(marker.utf8)) != nil else {
      throw BenchError.failed("storefront \(arguments.joined(separator: " ")) exited \(status) without printing '\(marker)': \(process.outputText.prefix(300))")
    }
    return milliseconds
  }
}
