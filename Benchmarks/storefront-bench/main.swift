import Foundation
import StoreEngine
import StorefrontProcessTestSupport

// storefront-bench [--json] [--quick] [--only SUITE,…]: issue 7's figures, each next to its baseline.
// Never fails because the machine is slow; exits 1 only when a measurement could not run at all.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == FrameBytesBenchmark.flag {
  exit(MainActor.assumeIsolated { FrameBytesBenchmark.presentChild(Array(arguments.dropFirst())) })
}
if arguments.first == LoadMemory.flag {
  exit(LoadMemory.main(Array(arguments.dropFirst())))
}
if arguments.first == RenderBenchmark.profileFlag {
  exit(RenderBenchmark.profile(Array(arguments.dropFirst())))
}
if arguments.first == AdvanceBenchmark.profileFlag {
  exit(AdvanceBenchmark.profile(Array(arguments.dropFirst())))
}
if arguments.first == CatalogGenerator.flag {
  exit(CatalogGenerator.main(Array(arguments.dropFirst())))
}
if arguments.first == HistoryBenchmark.flag {
  exit(HistoryBenchmark.main(Array(arguments.dropFirst())))
}
if arguments.first == RSSProbe.flag {
  exit(RSSProbe.main(Array(arguments.dropFirst())))
}
let usage =
  "usage: storefront-bench [--json] [--quick] [--only catalog,engine,ledger,bus,frames,render,process,launch,advance,serve,serve_history,notify,receipt,pgledger,history,present,storekit,attached,catalog_edit,idle,commit_view,commitment,retention]"
let suites = [
  "catalog", "engine", "ledger", "bus", "frames", "render", "process", "launch", "advance", "serve", "serve_history", "notify", "receipt",
  "pgledger", "history", "present", "storekit", "attached", "catalog_edit", "idle", "commit_view", "commitment", "retention",
]
var json = false
var quick = false
var only = Set(suites)
var index = 0
while index < arguments.count {
  switch arguments[index] {
  case "--json": json = true
  case "--quick": quick = true
  case "--only" where index + 1 < arguments.count:
    index += 1
    only = Set(arguments[index].split(separator: ",").map(String.init))
    if let unknown = only.first(where: { !suites.contains($0) }) {
      FileHandle.standardError.write(Data("storefront-bench: unknown suite '\(unknown)'\n\(usage)\n".utf8))
      exit(64)
    }
  case "--help", "-h":
    print(usage)
    exit(0)
  default:
    FileHandle.standardError.write(Data("storefront-bench: unknown argument '\(arguments[index])'\n\(usage)\n".utf8))
    exit(64)
  }
  index += 1
}

/// Sizes per mode: --quick proves the harness works in seconds; the default gives stable medians.
struct Plan {
  var repeats: Int
  var engineCycles: Int
  var ledgerCycles: Int
  var busPosts: Int
  var renderBatch: Int
  var process: ProcessBenchmark.Plan
  var launchRepeats: Int
  /// Real ES256 signatures in the launch ledgers (~90 s for 100,000), or the same bytes unsigned.
  var launchSigned: Bool
  /// Virtual seconds of the every-2s advance: a day, or an hour in --quick mode.
  var advanceInterval: TimeInterval
  var advanceRepeats: Int
  var serve: ServeBenchmark.Plan
  var serveHistory: ServeHistoryBenchmark.Plan = .full
  var notify: NotifyBenchmark.Plan = .full
  var receipt: ReceiptBenchmark.Plan = .full
  var pgledger: SharedLedgerBenchmark.Plan = .full
  var history: HistoryBenchmark.Plan = .full
  /// Round trips per repetition of the StoreKit library benchmark (each signs one ES256 JWS).
  var storeKitRoundTrips = 400
  /// Purchases of an app attached to a storefront TUI (issue 25), after 5 warm-up ones.
  var attachedPurchases = 200
  /// Commits by one process timed to another process's TUI (issue 35), and key presses as their baseline.
  var commitViewSamples = 200
  static let quick = Plan(
    repeats: 3, engineCycles: 5_000, ledgerCycles: 50, busPosts: 20_000, renderBatch: 50,
    process: .init(repeats: 3, keySessions: 1, keysPerSession: 60, rssRuns: 1),
    launchRepeats: 2, launchSigned: false, advanceInterval: 3_600, advanceRepeats: 1, serve: .quick, serveHistory: .quick, notify: .quick, receipt: .quick,
    pgledger: .quick, history: .quick, storeKitRoundTrips: 50, attachedPurchases: 30, commitViewSamples: 30)
  static let full = Plan(
    repeats: 9, engineCycles: 50_000, ledgerCycles: 400, busPosts: 200_000, renderBatch: 200,
    process: .init(repeats: 9, keySessions: 3, keysPerSession: 120, rssRuns: 3),
    launchRepeats: 7, launchSigned: true, advanceInterval: AdvanceBenchmark.day, advanceRepeats: 3, serve: .full)
}
let plan = quick ? Plan.quick : Plan.full
let command =
  "swift run -c release storefront-bench" + (json ? " --json" : "") + (quick ? " --quick" : "")
  + (only == Set(suites) ? "" : " --only " + suites.filter(only.contains).joined(separator: ","))
let report = Report()
let began = Stopwatch.nanoseconds()
report.extra("load_average_at_start", Machine.loadAverage())
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-bench-\(getpid())")
var failures: [String] = []

func progress(_ text: String) {
  FileHandle.standardError.write(Data("storefront-bench: \(text)\n".utf8))
}

@MainActor func attempt(_ suite: String, _ keys: [String], _ body: () throws -> Void) {
  guard only.contains(suite) else { return }
  progress(suite)
  let started = Stopwatch.nanoseconds()
  // Each suite's wall time, so a slow CI step can be traced to its suite.
  defer { progress("\(suite): \(Int(Double(Stopwatch.nanoseconds() - started) / 1e9)) s") }
  do {
    try body()
  } catch {
    failures.append("\(suite): \(error)")
    for key in keys { report.note(key, "the \(suite) benchmark failed: \(error)") }
  }
}

do {
  try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  let catalogURL = try CatalogGenerator.write(products: 10_000, in: scratch)
  let catalogData = try Data(contentsOf: catalogURL)
  let catalog = try CatalogDecoder().decode(catalogData, path: catalogURL.path)

  attempt("catalog", ["catalog_load_10k_ms", "catalog_load_vs_jsonserialization"]) {
    try CatalogBenchmark.run(catalogData, repeats: plan.repeats + 2, into: report)
  }
  attempt("catalog_edit", CatalogEditBenchmark.keys) {
    try CatalogEditBenchmark.run(repeats: plan.repeats + 2, scratch: scratch.appendingPathComponent("catalog-edit"), into: report)
  }
  attempt("engine", ["engine_cycles_per_s"]) {
    try EngineBenchmark.run(catalog: catalog, cycles: plan.engineCycles, repeats: plan.repeats, into: report)
  }
  attempt("storekit", StoreKitBenchmark.keys) {
    try StoreKitBenchmark.run(
      catalogURL: catalogURL, catalog: catalog, roundTrips: plan.storeKitRoundTrips, repeats: plan.repeats, into: report)
  }
  attempt("storekit", SessionOpenBenchmark.keys) {
    try SessionOpenBenchmark.run(scratch: scratch, repeats: plan.repeats, into: report)
  }
  attempt("attached", AttachedBenchmark.keys) {
    try AttachedBenchmark.run(purchases: plan.attachedPurchases, scratch: scratch.appendingPathComponent("attached"), into: report)
  }
  attempt("idle", IdleBenchmark.keys) {
    try IdleBenchmark.run(seconds: quick ? 10 : 30, scratch: scratch.appendingPathComponent("idle"), into: report)
  }
  attempt("commitment", CommitmentBenchmark.keys) {
    try CommitmentBenchmark.run(repeats: plan.repeats, scratch: scratch.appendingPathComponent("commitment"), into: report)
  }
  attempt("commit_view", CommitViewBenchmark.keys) {
    try CommitViewBenchmark.run(samples: plan.commitViewSamples, scratch: scratch.appendingPathComponent("commit-view"), into: report)
  }
  attempt("retention", RetentionBenchmark.keys) {
    try RetentionBenchmark.run(samples: plan.commitViewSamples, scratch: scratch.appendingPathComponent("retention"), into: report)
  }
  attempt("ledger", ["ledger_cycles_per_s", "ledger_vs_raw_sqlite"]) {
    try LedgerBenchmark.run(catalog: catalog, cycles: plan.ledgerCycles, repeats: plan.repeats, scratch: scratch, into: report)
  }
  attempt("bus", ["bus_posts_per_s", "bus_vs_notificationcenter"]) {
    try BusBenchmark.run(posts: plan.busPosts, repeats: plan.repeats, into: report)
  }
  attempt("frames", ["row_refresh_bytes", "full_repaint_bytes"]) {
    let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    try FrameBytesBenchmark.run(benchPath: me, catalog: catalog, catalogPath: catalogURL.path, scratch: scratch, into: report)
  }
  attempt("render", ["render_10k_vs_10"]) {
    try RenderBenchmark.run(catalog10k: catalog, repeats: plan.repeats, batch: plan.renderBatch, into: report)
  }
  attempt("process", ProcessBenchmark.keys) {
    if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      try LoadMemory.run(benchPath: me, catalogPath: catalogURL.path, scratch: scratch, into: report)
    }
    try ProcessBenchmark.run(
      binary: PtyStorefront.locate(scratch: scratch), catalogPath: catalogURL.path, plan: plan.process, into: report)
  }
  attempt("launch", ["launch_100_ms", "launch_100k_ms", "launch_100k_vs_100"]) {
    try LaunchBenchmark.run(
      catalog: catalog, repeats: plan.launchRepeats, signed: plan.launchSigned, scratch: scratch, into: report)
  }
  attempt("advance", ["advance_day_every_2s_s", "ledger_bytes_per_renewal", "advance_day_every_2s_finishing_s", "advance_finishing_vs_not"] + AdvanceBenchmark.floorKeys) {
    try AdvanceBenchmark.run(
      catalog: catalog, interval: plan.advanceInterval, repeats: plan.advanceRepeats, scratch: scratch, into: report)
  }
  attempt("serve", ServeBenchmark.keys) {
    let binary = try StorefrontBinary.locate(overrideVariable: "STOREFRONT_BIN", searchDebugBuild: false)
    try ServeBenchmark.run(catalog: catalog, binary: binary.path, plan: plan.serve, scratch: scratch, into: report)
  }
  attempt("serve_history", ServeHistoryBenchmark.keys) {
    let binary = try StorefrontBinary.locate(overrideVariable: "STOREFRONT_BIN", searchDebugBuild: false)
    try ServeHistoryBenchmark.run(catalog: catalog, binary: binary.path, plan: plan.serveHistory, scratch: scratch, into: report)
  }
  attempt("notify", NotifyBenchmark.keys) {
    let binary = try StorefrontBinary.locate(overrideVariable: "STOREFRONT_BIN", searchDebugBuild: false)
    try NotifyBenchmark.run(binary: binary.path, plan: plan.notify, scratch: scratch, into: report)
  }
  attempt("receipt", ReceiptBenchmark.keys) {
    let binary = try StorefrontBinary.locate(overrideVariable: "STOREFRONT_BIN", searchDebugBuild: false)
    try ReceiptBenchmark.run(binary: binary.path, plan: plan.receipt, scratch: scratch, into: report)
  }
  attempt("pgledger", SharedLedgerBenchmark.keys) {
    let binary = try StorefrontBinary.locate(overrideVariable: "STOREFRONT_BIN", searchDebugBuild: false)
    try SharedLedgerBenchmark.run(binary: binary.path, plan: plan.pgledger, scratch: scratch, into: report)
  }
  attempt("history", HistoryBenchmark.keys) {
    let binary = try StorefrontBinary.locate(overrideVariable: "STOREFRONT_BIN", searchDebugBuild: false)
    guard let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
      throw BenchError.failed("cannot find this benchmark's own executable for the RSS probe")
    }
    try HistoryBenchmark.run(binary: binary.path, benchPath: me, catalog: catalog, plan: plan.history, scratch: scratch, into: report)
  }
  attempt("present", PresentBenchmark.keys) {
    try PresentBenchmark.run(
      catalog: catalog, catalogPath: catalogURL.path, binary: PtyStorefront.locate(scratch: scratch),
      repeats: plan.repeats, scratch: scratch, into: report)
  }
} catch {
  failures.append("setup: \(error)")
}
try? FileManager.default.removeItem(at: scratch)

let seconds = Double(Stopwatch.nanoseconds() - began) / 1e9
report.extra("load_average_at_end", Machine.loadAverage())
if !failures.isEmpty { report.extra("failures", failures) }
let machine = Machine.describe()
if json {
  do {
    print(try report.json(machine: machine, command: command, seconds: seconds))
  } catch {
    FileHandle.standardError.write(Data("storefront-bench: could not write JSON: \(error)\n".utf8))
    exit(70)
  }
} else {
  print(report.text(machine: machine, command: command, seconds: seconds))
}
exit(failures.isEmpty ? 0 : 1)
