import Foundation
import StoreEngine
import StoreTUI

/// `render_10k_vs_10`: `render(state)` at 200×60 for a 10k-product store vs a 10-product one.
///
/// Every render gets one ``PriceMemo`` for the whole run, as the app's runtime keeps one.
///
/// Both states come from generated catalogs (``CatalogGenerator``) through ``StoreStates``; the two
/// alternate within every repetition, each timed over a batch of renders (one render is tens of
/// microseconds). A third store with exactly one screen of rows (53 at 200×60) separates "more
/// visible rows" from "more products": 10 products leave most of the table empty.
enum RenderBenchmark {
  static func run(catalog10k: Catalog, repeats: Int, batch: Int, into report: Report) throws {
    let rows = AppLayout(size: StoreStates.size).visibleRows(.store)
    let small = try CatalogDecoder().decode(CatalogGenerator.data(products: 10), path: "Bench10.storekit")
    let states = [
      ("10", StoreStates.store(small)),
      ("screen", StoreStates.store(try screenful(of: catalog10k))),
      ("10k", StoreStates.store(catalog10k)),
    ]
    // Rows formatted per frame: proof that cost follows the screen, not the catalog.
    let prices = PriceMemo()
    for (name, state) in states {
      let probe = RenderProbe()
      _ = render(state, prices: prices, probe: probe)
      report.extra("render_rows_formatted_\(name)", probe.productRowsFormatted)
    }
    var times: [String: [Double]] = [:]
    var sink = 0
    for repetition in 0...repeats {
      for (name, state) in states {
        let seconds = Stopwatch.seconds {
          for _ in 0..<batch { sink &+= render(state, prices: prices).size.width }
        }
        if repetition > 0 { times[name, default: []].append(seconds / Double(batch) * 1e6) }  // first: warm-up
      }
    }
    precondition(sink > 0)
    let samples = times.mapValues { Sample(values: $0, unit: "µs") }
    guard let ten = samples["10"], let screen = samples["screen"], let tenK = samples["10k"] else { return }
    report.record("render_200x60_10_products", ten)
    report.record("render_200x60_screenful_products", screen)
    report.record("render_200x60_10k_products", tenK)
    report.set("render_10k_vs_10", tenK.median / ten.median)
    report.extra("render_10k_vs_screenful", tenK.median / screen.median)
    report.note(
      "render_10k_vs_10",
      "median µs per render(state) of the 10k store over the 10-product one, \(batch) renders per timing, alternated. The 10-product store fills 10 of the table's \(rows) rows; render_10k_vs_screenful compares with a \(rows)-product store (one full screen), i.e. the same visible rows."
    )
  }

  static let profileFlag = "--profile-render"

  /// `storefront-bench --profile-render PRODUCTS RENDERS`: only renders, for
  /// `valgrind --tool=callgrind` (no catalog file, no timing, no other suites).
  static func profile(_ arguments: [String]) -> Int32 {
    guard arguments.count == 2, let products = Int(arguments[0]), let renders = Int(arguments[1]) else { return 64 }
    do {
      let catalog = try CatalogDecoder().decode(CatalogGenerator.data(products: products), path: "Bench.storekit")
      let state = StoreStates.store(catalog)
      let prices = PriceMemo()
      var sink = 0
      for _ in 0..<renders { sink &+= render(state, prices: prices).size.width }
      return sink > 0 ? 0 : 1
    } catch {
      FileHandle.standardError.write(Data("profile: \(error)\n".utf8))
      return 1
    }
  }

  /// The first rows of `catalog` that fill one screen of the Store table.
  private static func screenful(of catalog: Catalog) throws -> Catalog {
    let rows = AppLayout(size: StoreStates.size).visibleRows(.store)
    let products = Array(catalog.products.prefix(rows))
    guard products.count == rows else { throw BenchError.failed("the catalog has fewer than \(rows) products") }
    return Catalog(products: products)
  }
}
