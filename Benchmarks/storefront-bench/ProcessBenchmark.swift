import Foundation

/// The figures that need the real `storefront` binary on a pty: first frame, its `--version`
/// baseline, key latency and peak RSS.
///
/// The interactive TUI is not wired yet, so the pty driver is exercised on `storefront --version`
/// (the baseline, measured for real) and `storefront catalog show <10k catalog>` (a stand-in that
/// loads the same catalog and prints a table). When the TUI lands, set ``tuiProbe`` and the
/// first-frame, key-latency and RSS keys are measured through the same driver.
enum ProcessBenchmark {
  /// How to start the TUI on the 10k catalog and recognise its first complete frame; nil until
  /// the interactive command exists.
  struct TUIProbe: Sendable {
    var arguments: @Sendable (_ catalogPath: String) -> [String]
    /// True once the screen output holds a complete first frame.
    var frameComplete: @Sendable ([UInt8]) -> Bool
    /// Bytes for one key that changes the screen (e.g. down arrow), and to quit.
    var key: [UInt8]
    var quit: [UInt8]
  }

  static let tuiProbe: TUIProbe? = nil

  static func run(binary: StorefrontBinary?, catalogPath: String, lastProductID: String, repeats: Int, into report: Report) throws {
    guard let binary else {
      let why = "the storefront binary was not found next to storefront-bench; build it first with `swift build -c release --product storefront` (scripts/bench does), or set STOREFRONT_BIN."
      for key in ["first_frame_ms", "first_frame_vs_version", "key_latency_p50_ms", "key_latency_p99_ms", "peak_rss_mb_10k"] {
        report.note(key, why)
      }
      return
    }
    report.extra("storefront_binary", binary.path)
    // Warm the page cache for both commands, then alternate them.
    _ = try binary.timeToExit(["--version"], expecting: ".")
    _ = try binary.timeToExit(["catalog", "show", catalogPath], expecting: lastProductID)
    var version: [Double] = []
    var show: [Double] = []
    for _ in 0..<repeats {
      version.append(try binary.timeToExit(["--version"], expecting: "."))
      show.append(try binary.timeToExit(["catalog", "show", catalogPath], expecting: lastProductID))
    }
    // Peak RSS is a property of the program, not noisy: one run each under the probe.
    let versionRSS = [try binary.peakRSS(["--version"], expecting: ".")]
    let showRSS = [try binary.peakRSS(["catalog", "show", catalogPath], expecting: lastProductID)]
    let versionSample = Sample(values: version, unit: "ms")
    let showSample = Sample(values: show, unit: "ms")
    report.record("storefront_version_on_pty", versionSample)
    report.record("catalog_show_10k_on_pty", showSample)
    report.extra("storefront_version_ms", versionSample.median)
    report.extra("catalog_show_10k_ms", showSample.median)
    report.extra("catalog_show_10k_vs_version", showSample.median / versionSample.median)
    report.extra("catalog_show_10k_peak_rss_mb", showRSS[0])
    report.extra("storefront_version_peak_rss_mb", versionRSS[0])

    guard let probe = tuiProbe else {
      let why = "the interactive TUI is not wired into storefront yet (branch tuiapp); the pty driver runs, and measures `storefront --version` (\(Format.number(versionSample.median)) ms, the baseline) and `storefront catalog show` on the 10k catalog (\(Format.number(showSample.median)) ms, see catalog_show_10k_ms) as a stand-in, which is not a TUI frame."
      report.note("first_frame_ms", why)
      report.note("first_frame_vs_version", why)
      report.note("key_latency_p50_ms", "needs the interactive TUI (not wired yet) to send keys to.")
      report.note("key_latency_p99_ms", "needs the interactive TUI (not wired yet) to send keys to.")
      report.note("peak_rss_mb_10k", "needs the interactive TUI with the 10k catalog open; `storefront catalog show` on it peaks at \(Format.number(Sample(values: showRSS, unit: "MB").median)) MB (catalog_show_10k_peak_rss_mb, the child's ru_maxrss from wait4 in a small intermediate process, see RSSProbe), a lower bound; `storefront --version` peaks at \(Format.number(versionRSS[0])) MB.")
      return
    }
    try measureTUI(probe, binary: binary, catalogPath: catalogPath, versionMS: versionSample.median, repeats: repeats, into: report)
  }

  /// First frame, key latency (send a key → first bytes of the redraw; curses writes a frame with
  /// one flush) and peak RSS of the TUI on the 10k catalog.
  static func measureTUI(
    _ probe: TUIProbe, binary: StorefrontBinary, catalogPath: String, versionMS: Double, repeats: Int, into report: Report
  ) throws {
    var firstFrames: [Double] = []
    var latencies: [Double] = []
    var peaks: [Double] = []
    for _ in 0..<repeats {
      let process = try binary.start(probe.arguments(catalogPath))
      guard let first = process.read(timeout: 10, until: probe.frameComplete) else {
        throw BenchError.failed("the TUI drew no complete first frame within 10 s: \(process.outputText.suffix(300))")
      }
      firstFrames.append(first)
      for _ in 0..<50 {
        let mark = process.output.count
        let sent = process.elapsedMilliseconds
        process.send(probe.key)
        guard let updated = process.read(timeout: 2, until: { $0.count > mark }) else {
          throw BenchError.failed("the TUI did not redraw within 2 s of a key press")
        }
        latencies.append(updated - sent)
      }
      process.send(probe.quit)
      _ = process.readToEnd(timeout: 5)
      try process.waitForExit()
    }
    // Peak RSS: one more session under the probe, walking the table before quitting.
    let (process, file) = try binary.startMeasuringRSS(probe.arguments(catalogPath))
    guard process.read(timeout: 10, until: probe.frameComplete) != nil else {
      throw BenchError.failed("the TUI drew no complete first frame under the RSS probe")
    }
    for _ in 0..<50 {
      let mark = process.output.count
      process.send(probe.key)
      _ = process.read(timeout: 2) { $0.count > mark }
    }
    process.send(probe.quit)
    _ = process.readToEnd(timeout: 5)
    try process.waitForExit()
    peaks.append(try RSSProbe.read(file))
    let firstSample = Sample(values: firstFrames, unit: "ms")
    report.record("tui_first_frame_10k", firstSample)
    report.record("tui_peak_rss_10k", Sample(values: peaks, unit: "MB"))
    report.set("first_frame_ms", firstSample.median)
    report.set("first_frame_vs_version", firstSample.median / versionMS)
    report.set("peak_rss_mb_10k", Sample(values: peaks, unit: "MB").median)
    let sorted = latencies.sorted()
    func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
    report.set("key_latency_p50_ms", percentile(0.5))
    report.set("key_latency_p99_ms", percentile(0.99))
  }
}
