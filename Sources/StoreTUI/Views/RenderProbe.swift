/// Counts formatting work during a render, for tests and benchmarks that prove cost follows what
/// is visible. Package-only: it is instrumentation, not part of the render API.
package final class RenderProbe {
  /// Store rows formatted.
  package var productRowsFormatted = 0
  /// Transactions rows formatted.
  package var transactionRowsFormatted = 0

  package init() {}
}
