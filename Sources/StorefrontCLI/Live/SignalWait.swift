import Dispatch
import Foundation

/// Blocks until one of `signals` arrives: how `serve` waits for SIGTERM or SIGINT to stop cleanly.
final class SignalWait {
  private let sources: [any DispatchSourceSignal]
  private let arrived = DispatchSemaphore(value: 0)

  /// Returns once every source is armed: `resume()` registers a source asynchronously, and a signal
  /// that came before (a SIGTERM right after the ready file, on a loaded machine) was ignored, so serve
  /// kept running.
  init(signals: [Int32]) {
    let arrived = arrived
    let registered = DispatchSemaphore(value: 0)
    sources = signals.map { number in
      // The default action would end the process before the server is stopped.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { arrived.signal() }
      source.setRegistrationHandler { registered.signal() }
      source.resume()
      return source
    }
    // Bounded: libdispatch registers within microseconds; a stuck manager queue must not hang start-up.
    for _ in signals { _ = registered.wait(timeout: .now() + 10) }
    signal(SIGPIPE, SIG_IGN)
  }

  func wait() {
    arrived.wait()
    for source in sources { source.cancel() }
  }
}
