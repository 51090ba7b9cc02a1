/// `render_10k_vs_10`: `render(state, size)` at 200×60 for a 10k-product store vs a 10-product one.
///
/// `AppState` and `render` live on branch `tuiapp`, not merged yet. When they are: build an
/// `AppState` from each generated catalog (`CatalogGenerator.data(products: 10_000)` and `10`),
/// time `render(state, Size(width: 200, height: 60))` alternately (as ``CatalogBenchmark`` does),
/// and set the key to median(10k) / median(10). Switch ``FrameContent`` to the real render too.
enum RenderBenchmark {
  static func run(into report: Report) {
    report.note(
      "render_10k_vs_10",
      "not measurable yet: AppState and render(state,size) are on branch tuiapp, not merged into this build.")
  }
}
