import Foundation

/// `tui_idle_cpu_ms_per_s` (issue 35): the release storefront TUI alone on a fresh data directory
/// (built-in catalog, 120×40 pty), after its first frame and a settling wait, doing nothing: its
/// CPU over the wait (all threads, `/proc/PID/task/*/schedstat`), per second. What is left is its
/// one-second clock (DECISIONS §41). `attached_tui_idle_cpu_ms_per_s` is the same TUI with an
/// attached app waiting.
enum IdleBenchmark {
  static let keys = ["tui_idle_cpu_ms_per_s"]

  static func run(seconds: Double, scratch: URL, into report: Report) throws {
    guard let binary = PtyStorefront.locate(scratch: scratch) else {
      throw BenchError.failed("no release storefront binary next to the benchmark")
    }
    let directory = scratch.appendingPathComponent("idle-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let tui = try binary.start(["--data-dir", directory.path, "--account", "bench"], columns: 120, rows: 40)
    defer { tui.stop() }
    guard tui.read(timeout: 30, until: { $0.firstRange(of: Array("Restore Purchases".utf8)) != nil }) != nil else {
      throw BenchError.failed("the storefront did not draw its first frame")
    }
    // Past the launch's own work (registering, the first clock save, the first attend).
    Thread.sleep(forTimeInterval: 3)
    let idle = AttachedBenchmark.processCPUMillisecondsPerSecond(tui.pid) { Thread.sleep(forTimeInterval: seconds) }
    report.set("tui_idle_cpu_ms_per_s", idle)
    report.note(
      "tui_idle_cpu_ms_per_s",
      "The release storefront TUI alone on a fresh data directory (built-in catalog, 120×40 pty, signed in), \(Int(seconds)) s after its first frame and 3 s of settling: the run times of all its threads (/proc/PID/task/*/schedstat) over the wait, per second. It writes its clock every 30 s (DECISIONS §41): a 10 s window (--quick) holds one such save or none. Target ≤ 0.5 ms/s.")
  }
}
