import Foundation
import StoreEngine

/// `catalog_edit_2k_*` (issue 26): what `catalog set FILE ID price=N` does to a 2,000-product file
/// (read it, change the price's bytes on its text, check the result loads, compare the file on disk
/// with what was read, keep a `.bak`, write a temporary file and rename it over the old) against a plain rewrite of the same bytes (`write`
/// + `rename`), alternated within each repetition.
enum CatalogEditBenchmark {
  static let keys = ["catalog_edit_2k_ms", "catalog_rewrite_2k_ms", "catalog_edit_vs_rewrite"]

  static func run(repeats: Int, scratch: URL, into report: Report) throws {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let original = Array(try CatalogGenerator.data(products: 2_000))
    let catalog = try CatalogDecoder().decode(Data(original), path: "Bench2000.storekit")
    guard catalog.products.count == 2_000 else { throw BenchError.failed("the generated catalog has \(catalog.products.count) products") }
    let product = catalog.products[1_000].id.rawValue
    let edited = scratch.appendingPathComponent("Edited.storekit")
    let plain = scratch.appendingPathComponent("Plain.storekit")
    try Data(original).write(to: edited)
    try Data(original).write(to: plain)

    var edit: [Double] = []
    var rewrite: [Double] = []
    var lastBytes = original
    for round in 0..<(repeats + 1) {
      let price = round % 2 == 0 ? "12.34" : "0.99"
      let editSeconds = try Stopwatch.seconds {
        var file = try CatalogFile.open(path: edited.path)
        let bytes = try CatalogTextEditor(bytes: file.bytes).settingPrice(price, of: product)
        _ = try CatalogDecoder().decode(Data(bytes), path: edited.path)
        try file.save(bytes)
        lastBytes = bytes
      }
      let rewriteSeconds = try Stopwatch.seconds {
        let bytes = try Data(contentsOf: plain)
        let temporary = scratch.appendingPathComponent(".Plain.storekit.tmp")
        try bytes.write(to: temporary)
        guard rename(temporary.path, plain.path) == 0 else { throw BenchError.failed("rename: \(String(cString: strerror(errno)))") }
      }
      // The first round warms caches up.
      if round > 0 {
        edit.append(editSeconds * 1000)
        rewrite.append(rewriteSeconds * 1000)
      }
    }
    // Proof the edit is what it claims: one line differs from the original, or none after an even count.
    let changed = zip(lines(original), lines(lastBytes)).filter { $0 != $1 }.count
    guard changed <= 1, lines(original).count == lines(lastBytes).count else { throw BenchError.failed("the edit changed \(changed) lines") }
    let editSample = Sample(values: edit, unit: "ms")
    let rewriteSample = Sample(values: rewrite, unit: "ms")
    report.record("catalog_edit_2k", editSample)
    report.record("catalog_rewrite_2k", rewriteSample)
    report.set("catalog_edit_2k_ms", editSample.median)
    report.set("catalog_rewrite_2k_ms", rewriteSample.median)
    report.set("catalog_edit_vs_rewrite", editSample.median / rewriteSample.median)
    report.extra("catalog_2k_bytes", original.count)
  }

  private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
  }
}
