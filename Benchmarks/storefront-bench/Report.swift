import Foundation

/// The figures of one run: issue 7's keys and the engine rewrite's (a number or null), each
/// measurement's samples, notes.
final class Report {
  /// Every key, issue 7's then the rewrite's. Every one appears in the JSON, null when not measured.
  static let keys =
    issue7Keys + rewriteKeys + serverKeys + notificationKeys + ReceiptBenchmark.keys + SharedLedgerBenchmark.keys
    + HistoryBenchmark.keys + ServeHistoryBenchmark.keys + PresentBenchmark.keys + StoreKitBenchmark.keys
    + AttachedBenchmark.keys + IdleBenchmark.keys + CatalogEditBenchmark.keys + SessionOpenBenchmark.keys + LibraryQueriesBenchmark.keys
    + CommitViewBenchmark.keys + CommitmentBenchmark.keys + RetentionBenchmark.keys

  /// Issue 7's keys, in the issue's order.
  static let issue7Keys = [
    "catalog_load_10k_ms", "catalog_load_vs_jsonserialization",
    "engine_cycles_per_s",
    "ledger_cycles_per_s", "ledger_vs_raw_sqlite",
    "bus_posts_per_s", "bus_vs_notificationcenter",
    "render_10k_vs_10",
    "row_refresh_bytes", "full_repaint_bytes",
    "first_frame_ms", "first_frame_vs_version",
    "key_latency_p50_ms", "key_latency_p99_ms",
    "peak_rss_mb_10k",
  ]

  /// The goals of the engine's state-machine rewrite (launch loads only what it needs, a clock
  /// advance commits as one batch, signed data without repeated JWS headers).
  static let rewriteKeys = [
    "launch_100_ms", "launch_100k_ms", "launch_100k_vs_100",
    "advance_day_every_2s_s", "ledger_bytes_per_renewal",
    "advance_day_every_2s_finishing_s", "advance_finishing_vs_not",
  ] + AdvanceBenchmark.floorKeys

  /// Issue 13's: `storefront serve` against libmicrohttpd's ceiling, under a writer, and at 10,000 transactions.
  static let serverKeys = ServeBenchmark.keys

  /// Issue 14's: commit-to-webhook latency and delivery throughput against a plain libcurl loop.
  static let notificationKeys = NotifyBenchmark.keys

  private(set) var figures: [String: Double] = [:]
  private(set) var samples: [(name: String, sample: Sample)] = []
  private(set) var notes: [String: String] = [:]
  private(set) var extras: [String: Any] = [:]

  func set(_ key: String, _ value: Double) {
    precondition(Self.keys.contains(key), "Unknown key \(key)")
    figures[key] = value
  }

  func record(_ name: String, _ sample: Sample) {
    samples.append((name, sample))
  }

  /// Why `key` is null, or how it was measured.
  func note(_ key: String, _ text: String) {
    notes[key] = notes[key].map { $0 + " " + text } ?? text
  }

  func extra(_ key: String, _ value: Any) {
    extras[key] = value
  }

  func json(machine: [String: Any], command: String, seconds: Double) throws -> String {
    var object: [String: Any] = [:]
    for key in Self.keys { object[key] = figures[key].map { $0 as Any } ?? NSNull() }
    object["samples"] = Dictionary(samples.map { ($0.name, $0.sample.json) }, uniquingKeysWith: { _, last in last })
    object["notes"] = notes
    object["machine"] = machine
    object["command"] = command
    object["run_seconds"] = seconds
    for (key, value) in extras { object[key] = value }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }

  func text(machine: [String: Any], command: String, seconds: Double) -> String {
    var lines = ["storefront-bench — \(command)", "machine: \(machine["cpu"] ?? "?"), \(machine["cores"] ?? "?") cores", ""]
    for (title, keys) in [("Figures (issue 7):", Self.issue7Keys), ("Figures (engine rewrite):", Self.rewriteKeys), ("Figures (issue 13, serve):", Self.serverKeys), ("Figures (issue 14, notifications):", Self.notificationKeys), ("Figures (issue 16, shared ledger):", SharedLedgerBenchmark.keys), ("Figures (issue 23, history):", HistoryBenchmark.keys), ("Figures (issue 23, present):", PresentBenchmark.keys)] {
      lines.append(title)
      for key in keys {
        let value = figures[key].map { Format.number($0) } ?? "null"
        lines.append("  \(key.padding(toLength: 36, withPad: " ", startingAt: 0)) \(value)")
      }
    }
    lines.append("")
    lines.append("Measurements (median ± half range):")
    for (name, sample) in samples {
      lines.append("  \(name.padding(toLength: 36, withPad: " ", startingAt: 0)) \(sample.summary)")
    }
    if !extras.isEmpty {
      lines.append("")
      lines.append("Other figures:")
      for (key, value) in extras.sorted(by: { $0.key < $1.key }) {
        let text = (value as? Double).map { Format.number($0) } ?? "\(value)"
        lines.append("  \(key.padding(toLength: 36, withPad: " ", startingAt: 0)) \(text)")
      }
    }
    if !notes.isEmpty {
      lines.append("")
      lines.append("Notes:")
      for (key, text) in notes.sorted(by: { $0.key < $1.key }) { lines.append("  \(key): \(text)") }
    }
    lines.append("")
    lines.append("Run time: \(Format.number(seconds, digits: 1)) s")
    return lines.joined(separator: "\n")
  }
}

/// What the figures were measured on.
enum Machine {
  /// `/proc/loadavg`'s 1-, 5- and 15-minute load: other work on the machine skews timings.
  static func loadAverage() -> [Double] {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).compactMap { Double($0) }
  }

  static func describe() -> [String: Any] {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    var info = utsname()
    uname(&info)
    let kernel = withUnsafeBytes(of: &info.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return [
      "cpu": model, "cores": ProcessInfo.processInfo.activeProcessorCount,
      "memory_mb": Int(ProcessInfo.processInfo.physicalMemory / 1_048_576), "kernel": kernel,
    ]
  }
}
