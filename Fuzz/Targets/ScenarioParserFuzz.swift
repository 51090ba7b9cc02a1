import Foundation
import StoreEngine
import StoreScenario

/// The built-in catalog (`FUZZ_CATALOG`, default Catalog/Default.storekit, read once), so that
/// product ids in the corpus parse and deeper code is reached.
let fuzzCatalog: Catalog = {
  let path = ProcessInfo.processInfo.environment["FUZZ_CATALOG"] ?? "Catalog/Default.storekit"
  let data = FileManager.default.contents(atPath: path) ?? Data()
  return (try? CatalogDecoder().decode(data, path: path)) ?? Catalog(products: [])
}()

/// libFuzzer entry point: any bytes (as UTF-8, lossily) as a scenario. The parser must return steps
/// or issues, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func scenarioParserFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
  if case .success(let steps) = ScenarioParser(catalog: fuzzCatalog).parse(text) {
    // Durations are applied to the clock by the runner: make sure that cannot trap either.
    for step in steps {
      if case .advance(let duration) = step.action { _ = duration.after(Date(timeIntervalSince1970: 1_767_225_600)) }
    }
  }
  return 0
}
