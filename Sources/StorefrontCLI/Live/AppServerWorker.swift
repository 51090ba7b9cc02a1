import Dispatch
import SimulatedApp

/// Runs the simulated app's server calls off the TUI's main thread, one at a time, so input and
/// drawing never wait for the app's server.
final class AppServerWorker: @unchecked Sendable {
  // Touched only on `queue`: the libcurl handle is single-threaded.
  private let client = AppServerClient()
  private let queue = DispatchQueue(label: "storefront.app-server")

  /// Makes the call on the worker and hands the answer to `answered` there.
  func call(_ request: AppServerRequest, answered: @escaping @Sendable (AppServerAnswer) -> Void) {
    queue.async { [self] in answered(client.call(request)) }
  }
}
