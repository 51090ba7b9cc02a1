import Foundation

/// Finds the real `storefront` executable and runs it on a pty the way a user's terminal would.
struct StorefrontBinary {
  let path: String
  let environment: [String: String]

  /// `$STOREFRONT_BIN`, else `storefront` next to this executable (same build configuration).
  static func locate(scratch: URL) -> StorefrontBinary? {
    let inherited = ProcessInfo.processInfo.environment
    var candidates: [String] = []
    if let explicit = inherited["STOREFRONT_BIN"], !explicit.isEmpty { candidates.append(explicit) }
    if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append(URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("storefront").path)
    }
    guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
    // A clean environment: a private data dir, a known terminal, UTF-8, no colour surprises.
    let environment = [
      "PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.path, "TERM": "xterm-256color",
      "LANG": "C.UTF-8", "STOREFRONT_DATA_DIR": scratch.appendingPathComponent("data").path,
    ]
    return StorefrontBinary(path: path, environment: environment)
  }

  /// Starts `storefront arguments…` on a 200×60 pty.
  func start(_ arguments: [String], columns: Int = 200, rows: Int = 60) throws -> PtyProcess {
    try PtyProcess(executable: path, arguments: arguments, environment: environment, columns: columns, rows: rows)
  }

  /// Runs a command that prints and exits; returns milliseconds from spawn to the child's exit
  /// and its peak RSS in MB.
  func timeToExit(_ arguments: [String], expecting marker: String, timeout: Double = 30) throws -> (ms: Double, peakRSSMB: Double) {
    let process = try start(arguments)
    guard process.readToEnd(timeout: timeout) != nil else {
      throw BenchError.failed("storefront \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s")
    }
    let (status, rss) = try process.waitForExit()
    let milliseconds = process.elapsedMilliseconds
    guard status == 0, process.output.firstRange(of: Array(marker.utf8)) != nil else {
      throw BenchError.failed("storefront \(arguments.joined(separator: " ")) exited \(status) without printing '\(marker)': \(process.outputText.prefix(300))")
    }
    return (milliseconds, Double(rss) / 1024)
  }
}
