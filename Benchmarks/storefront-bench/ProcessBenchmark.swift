import Foundation

/// The figures that need the real `storefront` binary on a pty: first frame (default catalog and
/// 10k catalog), its `storefront --version` baseline, key latency and peak RSS with the 10k catalog.
///
/// Every TUI session gets a fresh `--data-dir` (a first launch: new ledger, new sandbox CA), and
/// ends with `q` and a reaped child; on any failure the child's process group is killed and
/// reaped and the pty closed (``PtyProcess/stop(grace:)``, also run by its deinit).
enum ProcessBenchmark {
  /// How to start the TUI and recognise its first complete frame.
  struct TUIProbe: Sendable {
    var arguments: @Sendable (_ catalogPath: String?, _ dataDirectory: String) -> [String]
    /// True once the screen output holds a complete first frame.
    var frameComplete: @Sendable ([UInt8]) -> Bool
    /// Bytes for one key that changes the screen, and to quit.
    var key: [UInt8]
    var quit: [UInt8]
  }

  /// The interactive storefront: `storefront --data-dir DIR [--catalog PATH]`; Down arrow (as an
  /// xterm in keypad-transmit mode sends it, which curses turns on) moves the selection; `q` quits.
  ///
  /// curses draws a frame top to bottom in one `doupdate`; the key hint bar is the last row, so the
  /// end of its text (`q quit`) marks the first frame complete.
  static let tuiProbe: TUIProbe? = TUIProbe(
    arguments: { catalog, dataDirectory in ["--data-dir", dataDirectory] + (catalog.map { ["--catalog", $0] } ?? []) },
    frameComplete: { $0.firstRange(of: Array("q quit".utf8)) != nil },
    key: [0x1B, 0x4F, 0x42],  // ESC O B
    quit: Array("q".utf8))

  /// Sizes of the pty measurements.
  struct Plan {
    var repeats: Int
    /// Key-latency sessions on the 10k catalog, and key presses per session.
    var keySessions: Int
    var keysPerSession: Int
    var rssRuns: Int
  }

  static let keys = ["first_frame_ms", "first_frame_vs_version", "key_latency_p50_ms", "key_latency_p99_ms", "peak_rss_mb_10k"]

  static func run(binary: PtyStorefront?, catalogPath: String, plan: Plan, into report: Report) throws {
    guard let binary else {
      let why = "the storefront binary was not found next to storefront-bench; build it first with `swift build -c release --product storefront` (scripts/bench does), or set STOREFRONT_BIN."
      for key in keys { report.note(key, why) }
      return
    }
    report.extra("storefront_binary", binary.path)
    guard let probe = tuiProbe else {
      for key in keys { report.note(key, "no TUI probe configured") }
      return
    }
    let tui = TUISession(probe: probe, binary: binary)
    // Warm the page cache (binary, shared libraries, catalog file) for every command, then alternate them.
    _ = try binary.timeToExit(["--version"], expecting: ".")
    _ = try tui.firstFrame(catalog: nil)
    _ = try tui.firstFrame(catalog: catalogPath)
    var version: [Double] = []
    var firstDefault: [Double] = []
    var first10k: [Double] = []
    for _ in 0..<plan.repeats {
      version.append(try binary.timeToExit(["--version"], expecting: "."))
      firstDefault.append(try tui.firstFrame(catalog: nil))
      first10k.append(try tui.firstFrame(catalog: catalogPath))
    }
    let versionSample = Sample(values: version, unit: "ms")
    let defaultSample = Sample(values: firstDefault, unit: "ms")
    let tenKSample = Sample(values: first10k, unit: "ms")
    report.record("storefront_version_on_pty", versionSample)
    report.record("tui_first_frame_default_catalog", defaultSample)
    report.record("tui_first_frame_10k", tenKSample)
    report.set("first_frame_ms", defaultSample.median)
    report.set("first_frame_vs_version", defaultSample.median / versionSample.median)
    report.extra("storefront_version_ms", versionSample.median)
    report.extra("first_frame_10k_ms", tenKSample.median)
    report.extra("first_frame_10k_vs_version", tenKSample.median / versionSample.median)
    report.note(
      "first_frame_ms",
      "`storefront --data-dir FRESH` (built-in catalog) on a 200×60 pty: posix_spawn → the bytes of the first frame's last row ('q quit') read from the master. With the 10k catalog (--catalog): first_frame_10k_ms. Baseline: `storefront --version` on the same pty, spawn → exit (storefront_version_ms).")

    var latencies: [Double] = []
    var firstBytes: [Double] = []
    for _ in 0..<plan.keySessions {
      let (last, first) = try tui.keyLatencies(catalog: catalogPath, presses: plan.keysPerSession)
      latencies += last
      firstBytes += first
    }
    let sorted = latencies.sorted()
    report.set("key_latency_p50_ms", percentile(sorted, 0.5))
    report.set("key_latency_p99_ms", percentile(sorted, 0.99))
    report.record("tui_key_latency_10k", Sample(values: latencies, unit: "ms"))
    report.extra("key_latency_first_byte_p50_ms", percentile(firstBytes.sorted(), 0.5))
    report.extra("key_latency_first_byte_p99_ms", percentile(firstBytes.sorted(), 0.99))
    report.extra("key_latency_max_ms", sorted.last ?? .nan)
    report.note(
      "key_latency_p50_ms",
      "\(latencies.count) Down-arrow presses (\(plan.keySessions) session(s) × \(plan.keysPerSession), from the top of the 10k table, so the later ones scroll it) after the first frame settled: write to the pty master → the last byte of the redraw burst (a burst ends after 5 ms without bytes; that wait is not counted). A 1 s clock tick redraw can overlap a sample.")

    var rss10k: [Double] = []
    var rssDefault: [Double] = []
    for _ in 0..<plan.rssRuns {
      rss10k.append(try tui.peakRSS(catalog: catalogPath, presses: plan.keysPerSession))
      // The built-in catalog fits on one screen; Down past its last row draws nothing, so no keys.
      rssDefault.append(try tui.peakRSS(catalog: nil, presses: 0))
    }
    let rssSample = Sample(values: rss10k, unit: "MB")
    report.record("tui_peak_rss_10k", rssSample)
    report.record("tui_peak_rss_default_catalog", Sample(values: rssDefault, unit: "MB"))
    report.set("peak_rss_mb_10k", rssSample.median)
    report.extra("storefront_version_peak_rss_mb", try binary.peakRSS(["--version"], expecting: "."))
    report.note(
      "peak_rss_mb_10k",
      "ru_maxrss of `storefront --catalog <10k> --data-dir FRESH` after its first frame and \(plan.keysPerSession) Down presses then q, taken by wait4 in a small intermediate process (see RSSProbe). See catalog_10k_peak_rss_mb for what loading the file alone costs.")
  }

  /// Nearest-rank percentile of sorted values.
  static func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
  }
}

/// One kind of TUI session of the real binary on a pty.
struct TUISession {
  let probe: ProcessBenchmark.TUIProbe
  let binary: PtyStorefront

  /// Milliseconds from spawn to the first complete frame; quits and reaps the child.
  func firstFrame(catalog: String?) throws -> Double {
    try withSession(catalog: catalog) { process in
      guard let first = process.read(timeout: 20, until: probe.frameComplete) else {
        throw BenchError.failed("storefront drew no complete first frame within 20 s (catalog \(catalog ?? "built-in")): \(process.outputText.suffix(300))")
      }
      return first
    }
  }

  /// Per key press: milliseconds to the last and to the first byte of the redraw.
  func keyLatencies(catalog: String, presses: Int) throws -> (last: [Double], first: [Double]) {
    try withSession(catalog: catalog) { process in
      try waitForFirstFrame(process)
      return try press(presses, in: process)
    }
  }

  /// Peak RSS in MB of a session that draws its first frame, takes `presses` Down keys and quits.
  func peakRSS(catalog: String?, presses: Int) throws -> Double {
    let directory = try freshDataDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (process, file) = try binary.startMeasuringRSS(probe.arguments(catalog, directory.path))
    defer { process.stop() }
    try waitForFirstFrame(process)
    _ = try press(presses, in: process)
    try quit(process)
    return try RSSProbe.read(file)
  }

  private func withSession<T>(catalog: String?, _ body: (PtyProcess) throws -> T) throws -> T {
    let directory = try freshDataDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let process = try binary.start(probe.arguments(catalog, directory.path))
    defer { process.stop() }
    let result = try body(process)
    try quit(process)
    return result
  }

  private func waitForFirstFrame(_ process: PtyProcess) throws {
    guard process.read(timeout: 20, until: probe.frameComplete) != nil else {
      throw BenchError.failed("storefront drew no complete first frame within 20 s: \(process.outputText.suffix(300))")
    }
    // Let start-up work (launch, account load) draw its frames before timing keys.
    process.drain(quiet: 0.1, timeout: 3)
  }

  private func press(_ count: Int, in process: PtyProcess) throws -> (last: [Double], first: [Double]) {
    var last: [Double] = []
    var first: [Double] = []
    for index in 0..<count {
      let mark = process.output.count
      let sent = process.elapsedMilliseconds
      process.send(probe.key)
      guard let burst = process.readBurst(after: mark, timeout: 2, quiet: 0.005) else {
        throw BenchError.failed("storefront did not redraw within 2 s of key press \(index + 1)")
      }
      last.append(burst.last - sent)
      first.append(burst.first - sent)
    }
    return (last, first)
  }

  private func quit(_ process: PtyProcess) throws {
    process.send(probe.quit)
    guard process.readToEnd(timeout: 10) != nil else {
      throw BenchError.failed("storefront did not exit within 10 s of q: \(process.outputText.suffix(300))")
    }
    let status = try process.waitForExit().status
    guard status == 0 else { throw BenchError.failed("storefront exited \(status) after q: \(process.outputText.suffix(300))") }
  }

  private func freshDataDirectory() throws -> URL {
    let directory = binary.scratch.appendingPathComponent("data-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }
}
