import CNcursesw
import Dispatch
import Foundation
import StoreTUI

/// The interactive event loop: input, signals and an optional clock on the main queue.
///
/// Everything runs on the main thread (the main actor), so curses is only ever called from one
/// thread. Work on other threads reaches the app through ``post(_:)``.
///
/// ```swift
/// let loop = TerminalRunLoop<StoreEvent>(terminal: NcursesTerminal(), tick: .seconds(1))
/// engine.onEvent = { event in loop.post(event) }            // any thread
/// let outcome = try loop.run(
///   handle: { event in reduce(&state, event) ? .continue : .quit(exitCode: 0) },
///   render: { size in render(state, size: size) })
/// ledger.close()                                             // the app's cleanup
/// exit(outcome.exitCode)                                     // 0, or 128 + signal
/// ```
///
/// `run` spins the main `RunLoop`, so call it from synchronous code on the main thread (the
/// top level of `main.swift` or a synchronous `main()`), not from inside an `async` function.
@MainActor
public final class TerminalRunLoop<External: Sendable> {
  /// What the app's handler receives.
  public enum Event {
    /// A key, or a mouse event as ``Key/mouse(_:)``. Resizes arrive as ``resize(_:)`` instead.
    case key(Key)
    /// The terminal has a new size (sent once per actual change).
    case resize(Size)
    /// The repeating clock tick, if the loop was given an interval.
    case tick(Date)
    /// An event posted with ``TerminalRunLoop/post(_:)``.
    case external(External)
  }

  /// What the handler wants next.
  public enum Step: Equatable, Sendable {
    /// Keep running (the screen is re-rendered).
    case `continue`
    /// Keep running; the event changed nothing on screen, so a posted event draws no frame (an idle
    /// screen woken by its own commit costs no redraw).
    case unchanged
    /// Restore the terminal and return from ``TerminalRunLoop/run(handle:render:)``.
    case quit(exitCode: Int32)
  }

  /// How ``TerminalRunLoop/run(handle:render:)`` ended.
  public enum Outcome: Equatable, Sendable {
    /// The handler returned ``Step/quit(exitCode:)``.
    case quit(exitCode: Int32)
    /// SIGINT, SIGTERM or SIGHUP arrived.
    case signalled(Int32)

    /// The conventional process exit status: the handler's code, or 128 + the signal number.
    public var exitCode: Int32 {
      switch self {
      case .quit(let code): code
      case .signalled(let signal): 128 + signal
      }
    }
  }

  public let terminal: NcursesTerminal
  private let tickInterval: Duration?
  private let now: @Sendable () -> Date
  private var handler: ((Event) -> Step)?
  private var renderer: ((Size) -> ScreenBuffer)?
  private var outcome: Outcome?
  private var isRunning = false
  private var renderScheduled = false
  private var deliveredSize: Size?
  private var sources: [any DispatchSourceProtocol] = []
  private static var terminationSignals: [Int32] { [SIGINT, SIGTERM, SIGHUP] }

  /// - Parameters:
  ///   - terminal: the terminal to run; started and stopped by ``run(handle:render:)``.
  ///   - tick: interval of ``Event/tick(_:)`` events, or `nil` for none.
  ///   - now: the clock stamped on ticks (inject a fixed clock in tests).
  public init(
    terminal: NcursesTerminal, tick: Duration? = nil,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.terminal = terminal
    self.tickInterval = tick
    self.now = now
  }

  /// Delivers `event` to the handler on the main queue. Callable from any thread; events are
  /// delivered in the order posted, and dropped if the loop is not running by then.
  public nonisolated func post(_ event: External) {
    DispatchQueue.main.async {
      if self.deliver(.external(event)) { self.scheduleRender() }
    }
  }

  /// Starts the terminal, runs until the handler quits or a termination signal arrives, then
  /// restores the terminal and returns. Renders the first frame immediately and after every
  /// batch of events.
  ///
  /// - Throws: ``TerminalError`` if the terminal cannot start (nothing has been drawn then).
  public func run(
    handle: @escaping (Event) -> Step, render: @escaping (Size) -> ScreenBuffer
  ) throws(TerminalError) -> Outcome {
    precondition(!isRunning, "TerminalRunLoop.run is not reentrant")
    handler = handle
    renderer = render
    outcome = nil
    installSignalSources()  // before start(), so curses does not install its own handlers
    do {
      try terminal.start()
    } catch {
      tearDown()
      throw error
    }
    isRunning = true
    installInputAndTimer()
    deliveredSize = terminal.size
    renderNow()
    while outcome == nil {
      _ = RunLoop.main.run(mode: .default, before: .distantFuture)
    }
    tearDown()
    return outcome ?? .quit(exitCode: 0)
  }

  // MARK: Events

  /// Hands `event` to the handler; false when it said nothing on screen changed.
  @discardableResult
  private func deliver(_ event: Event) -> Bool {
    guard isRunning, outcome == nil, let handler else { return false }
    switch handler(event) {
    case .quit(let code):
      finish(.quit(exitCode: code))
      return true
    case .continue: return true
    case .unchanged: return false
    }
  }

  private func finish(_ result: Outcome) {
    guard outcome == nil else { return }
    outcome = result
    isRunning = false
    terminal.stop()  // restore right away; the app's cleanup runs after run() returns
  }

  private func drainInput() {
    while isRunning, let key = terminal.nextKey() {
      if key == .resize {
        deliverResizeIfChanged()
      } else {
        deliver(.key(key))
      }
    }
    renderNow()
  }

  private func deliverResizeIfChanged() {
    let size = terminal.size
    guard size != deliveredSize else { return }
    deliveredSize = size
    deliver(.resize(size))
  }

  private func onSignal(_ signal: Int32) {
    guard isRunning else { return }
    if signal == SIGCONT {
      terminal.resumeAfterSuspend()
      terminal.updateSize()  // the window may have changed while stopped
      drainInput()
      deliverResizeIfChanged()
      renderNow()
    } else if signal == SIGWINCH {
      // libdispatch replaced curses' SIGWINCH handler: resize curses ourselves.
      terminal.updateSize()
      drainInput()
      deliverResizeIfChanged()
      renderNow()
    } else {
      finish(.signalled(signal))
    }
  }

  // MARK: Rendering

  /// Asks for a frame on the main queue's next turn; requests before it is drawn are one frame.
  public func requestRender() { scheduleRender() }

  private func scheduleRender() {
    guard isRunning, !renderScheduled else { return }
    renderScheduled = true
    DispatchQueue.main.async {
      self.renderScheduled = false
      self.renderNow()
    }
  }

  private func renderNow() {
    guard isRunning, let renderer else { return }
    terminal.present(renderer(terminal.size))
  }

  // MARK: Sources

  private func installSignalSources() {
    for signal in Self.terminationSignals + [SIGWINCH, SIGCONT] {
      // SIGCONT must keep continuing the process, so it is not ignored; Linux's libdispatch
      // observes signals through its own handler either way.
      if signal != SIGCONT { _ = Glibc.signal(signal, SIG_IGN) }  // needed on Darwin
      let source = DispatchSource.makeSignalSource(signal: signal, queue: .main)
      source.setEventHandler { [weak self] in
        MainActor.assumeIsolated { self?.onSignal(signal) }
      }
      source.resume()
      sources.append(source)
    }
  }

  private func installInputAndTimer() {
    let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    input.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.drainInput() }
    }
    input.resume()
    sources.append(input)
    if let tickInterval {
      let timer = DispatchSource.makeTimerSource(queue: .main)
      let interval = DispatchTimeInterval.nanoseconds(Self.nanoseconds(tickInterval))
      timer.schedule(deadline: .now() + interval, repeating: interval)
      timer.setEventHandler { [weak self] in
        MainActor.assumeIsolated {
          guard let self else { return }
          self.deliver(.tick(self.now()))
          // Scheduled, not drawn now: what the tick caused and reaches the handler on the main
          // queue after it (engine events) is in the same frame, and a request for one more
          // frame in between is one and the same.
          self.scheduleRender()
        }
      }
      timer.resume()
      sources.append(timer)
    }
  }

  private func tearDown() {
    for source in sources { source.cancel() }
    sources.removeAll()
    for signal in Self.terminationSignals + [SIGWINCH, SIGCONT] {
      _ = Glibc.signal(signal, SIG_DFL)
    }
    terminal.stop()
    isRunning = false
    handler = nil
    renderer = nil
  }

  static func nanoseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
  }
}
