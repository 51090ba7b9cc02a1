import Dispatch
import Foundation

/// Blocks until one of `signals` arrives: how `serve` waits for SIGTERM or SIGINT to stop cleanly.
final class SignalWait {
  private let sources: [any DispatchSourceSignal]
  private let arrived = DispatchSemaphore(value: 0)

  init(signals: [Int32]) {
    let arrived = arrived
    sources = signals.map { number in
      // The default action would end the process before the server is stopped.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { arrived.signal() }
      source.resume()
      return source
    }
    signal(SIGPIPE, SIG_IGN)
  }

  func wait() {
    arrived.wait()
    for source in sources { source.cancel() }
  }
}
