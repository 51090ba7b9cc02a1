import Foundation
import StoreEngine

/// `catalog_load_10k_ms` and its baseline: `CatalogDecoder.decode` (parse + walk + validate) vs
/// `JSONSerialization.jsonObject` alone on the same bytes, alternated within each repetition.
enum CatalogBenchmark {
  static func run(_ data: Data, repeats: Int, into report: Report) throws {
    let decoder = CatalogDecoder()
    // Warm-up, and proof that the generated catalog is valid.
    let catalog = try decoder.decode(data, path: "Bench10000.storekit")
    guard catalog.products.count == 10_000 else {
      throw BenchError.failed("the generated catalog has \(catalog.products.count) products, not 10000")
    }
    _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])

    var codable: [Double] = []
    var decode: [Double] = []
    var foundation: [Double] = []
    for _ in 0..<repeats {
      var result: Catalog?
      decode.append(try Stopwatch.seconds { result = try decoder.decode(data, path: "Bench10000.storekit") } * 1000)
      var object: Any?
      foundation.append(try Stopwatch.seconds { object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } * 1000)
      var file: CodableCatalog?
      codable.append(try Stopwatch.seconds { file = try JSONDecoder().decode(CodableCatalog.self, from: data) } * 1000)
      withExtendedLifetime((result, object, file)) {}
    }
    let decodeSample = Sample(values: decode, unit: "ms")
    let foundationSample = Sample(values: foundation, unit: "ms")
    report.record("catalog_decode_10k", decodeSample)
    report.record("catalog_jsonserialization_10k", foundationSample)
    // What a JSONDecoder-based decoder would start from (see LoadMemory for its memory).
    report.record("catalog_jsondecoder_codable_10k", Sample(values: codable, unit: "ms"))
    report.set("catalog_load_10k_ms", decodeSample.median)
    report.set("catalog_load_vs_jsonserialization", decodeSample.median / foundationSample.median)
    report.extra("catalog_10k_bytes", data.count)
  }
}

enum BenchError: Error, CustomStringConvertible {
  case failed(String)
  var description: String {
    switch self { case .failed(let message): message }
  }
}
