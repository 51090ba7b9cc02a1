import Foundation

/// Peak RSS of a child, measured from a small intermediate process.
///
/// `posix_spawn` (vfork + exec) on Linux carries the spawning process's peak RSS into the child's
/// `ru_maxrss`: exec folds the old address space's high-water mark into the process's maximum. The
/// harness holds a decoded 10k catalog (~200 MB), so every child it spawns directly would report at
/// least that. `storefront-bench --measure-rss FILE EXE ARGS…` is a fresh, small process that
/// spawns EXE on its own terminal, waits with `wait4`, and writes the child's `ru_maxrss` (KB) to FILE.
enum RSSProbe {
  static let flag = "--measure-rss"

  /// The intermediate process's body; returns its exit status (the child's).
  static func main(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 2 else { return 64 }
    let resultFile = arguments[0]
    let argv = arguments.dropFirst().map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let code = posix_spawn(&child, arguments[1], nil, nil, argv, environ)
    guard code == 0 else { return 71 }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(child, &status, 0, &usage) < 0 {
      guard errno == EINTR else { return 71 }
    }
    try? "\(usage.ru_maxrss)\n".write(toFile: resultFile, atomically: true, encoding: .utf8)
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }

  /// Reads what ``main(_:)`` wrote, in MB.
  static func read(_ file: String) throws -> Double {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8),
      let kilobytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw BenchError.failed("the RSS probe wrote nothing to \(file)") }
    return kilobytes / 1024
  }
}
