import CNcursesw
import Foundation
import StoreTUI

/// The real ``Terminal``: ncursesw on the process's tty. The only type that calls curses.
///
/// Confined to the main actor: curses keeps global state and is not thread-safe. Typical use is
/// through ``TerminalRunLoop``; used directly:
///
/// ```swift
/// let terminal = NcursesTerminal()
/// try terminal.start()          // throws TerminalError instead of exiting like initscr
/// defer { terminal.stop() }     // idempotent; also done at exit and on fatal signals
/// terminal.present(render(terminal.size))
/// ```
@MainActor
public final class NcursesTerminal: Terminal {
  /// When to use colours.
  public enum ColorMode: Sendable {
    /// If the terminal has colours and `NO_COLOR` is unset or empty.
    case automatic
    /// Attributes only (bold, dim, reverse, underline).
    case never
  }

  /// How ``present(_:)`` draws.
  public enum RepaintMode: Sendable {
    /// Write only the runs that changed since the last frame (the default).
    case changedRuns
    /// Clear and write every cell each frame: the baseline for benchmarks.
    case fullFrame
  }

  /// Start-up settings.
  public struct Options: Sendable {
    public var colors: ColorMode
    /// Ask the terminal for mouse reports (clicks and wheel).
    public var mouse: Bool
    /// How long a lone Esc waits for the rest of an escape sequence.
    public var escapeDelayMilliseconds: Int32

    public init(
      colors: ColorMode = .automatic, mouse: Bool = true, escapeDelayMilliseconds: Int32 = 25
    ) {
      self.colors = colors
      self.mouse = mouse
      self.escapeDelayMilliseconds = escapeDelayMilliseconds
    }
  }

  public let options: Options
  public private(set) var size: Size = .zero
  /// Whether curses mode is on (between ``start()`` and ``stop()``).
  public private(set) var isActive = false
  /// Whether colour pairs are in use (decided at ``start()``).
  public private(set) var colorsEnabled = false
  /// What ``present(_:)`` wrote so far.
  public private(set) var statistics = PresentStatistics()
  public var repaintMode: RepaintMode = .changedRuns

  private var screen: OpaquePointer?
  private var window: UnsafeMutablePointer<WINDOW>?
  private var outputFile: UnsafeMutablePointer<FILE>?
  private var inputFile: UnsafeMutablePointer<FILE>?
  private var lastFrame: ScreenBuffer?
  private var needsClear = false
  private var mouseDecoder = MouseDecoder()

  public init(options: Options = Options()) {
    self.options = options
  }

  // MARK: Lifecycle

  /// Throws ``TerminalError/notATerminal(stream:)`` unless both stdin and stdout are ttys.
  ///
  /// Call it before anything else prints, so a piped invocation fails with a clear message.
  public nonisolated static func requireInteractive() throws(TerminalError) {
    if isatty(STDIN_FILENO) == 0 { throw .notATerminal(stream: .standardInput) }
    if isatty(STDOUT_FILENO) == 0 { throw .notATerminal(stream: .standardOutput) }
  }

  /// Enters curses mode. Does nothing if already active.
  ///
  /// Uses `newterm`, not `initscr`, so an unknown `TERM` is a thrown error rather than
  /// `exit(1)` inside curses.
  public func start() throws(TerminalError) {
    guard !isActive else { return }
    try Self.requireInteractive()
    Self.configureLocale()
    guard let type = ProcessInfo.processInfo.environment["TERM"], !type.isEmpty else {
      throw .terminalTypeNotSet
    }
    guard let output = fdopen(dup(STDOUT_FILENO), "w") else {
      throw .notATerminal(stream: .standardOutput)
    }
    guard let input = fdopen(dup(STDIN_FILENO), "r") else {
      fclose(output)
      throw .notATerminal(stream: .standardInput)
    }
    guard let screen = newterm(nil, output, input), let window = sf_stdscr() else {
      fclose(output)
      fclose(input)
      throw .unusableTerminalType(type)
    }
    CrashGuard.install()
    CrashGuard.cursesActive.store(true, ordering: .sequentiallyConsistent)
    self.screen = screen
    self.window = window
    self.outputFile = output
    self.inputFile = input
    isActive = true

    _ = cbreak()  // not raw(): Ctrl-C and Ctrl-Z keep generating signals
    _ = noecho()
    _ = nonl()
    _ = intrflush(window, false)
    _ = keypad(window, true)
    _ = nodelay(window, true)
    _ = set_escdelay(options.escapeDelayMilliseconds)
    _ = curs_set(0)
    colorsEnabled = AttributeMapping.wantsColors(
      mode: options.colors, terminalHasColors: has_colors(),
      environment: ProcessInfo.processInfo.environment)
    if colorsEnabled { setUpColors() }
    if options.mouse {
      let mask = SF_BUTTON1_PRESSED | SF_BUTTON1_RELEASED | SF_BUTTON4_PRESSED | SF_BUTTON5_PRESSED
      _ = mousemask(mask, nil)
      _ = mouseinterval(0)  // no click-detection delay; MouseDecoder turns releases into clicks
    }
    size = Size(width: Int(getmaxx(window)), height: Int(getmaxy(window)))
    lastFrame = nil
    mouseDecoder = MouseDecoder()
  }

  /// Leaves curses mode and restores the terminal (cooked mode, cursor, main screen, mouse off).
  /// Safe to call more than once.
  public func stop() {
    guard isActive else { return }
    isActive = false
    CrashGuard.restoreTerminal()
    if let screen { delscreen(screen) }
    if let outputFile { fclose(outputFile) }
    if let inputFile { fclose(inputFile) }
    screen = nil
    window = nil
    outputFile = nil
    inputFile = nil
    lastFrame = nil
  }

  /// `setlocale(LC_ALL, "")`, falling back to C.UTF-8 when the environment's locale is not
  /// UTF-8 (common under tmux and CI with LANG unset): curses garbles wide characters otherwise.
  nonisolated static func configureLocale() {
    _ = setlocale(LC_ALL, "")
    if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) == "UTF-8" { return }
    _ = setlocale(LC_CTYPE, "C.UTF-8")
  }

  private func setUpColors() {
    _ = start_color()
    let background: Int16 = use_default_colors() == OK ? -1 : Int16(COLOR_BLACK)
    for entry in AttributeMapping.foregrounds {
      _ = init_pair(entry.pair, entry.color, background)
    }
  }

  // MARK: Size

  /// Re-reads the tty size (`TIOCGWINSZ`) and resizes curses to it; call on `SIGWINCH` when
  /// curses' own handler is not installed (as under ``TerminalRunLoop``).
  ///
  /// `resizeterm` also queues a ``Key/resize`` for ``nextKey()``.
  @discardableResult
  public func updateSize() -> Size {
    guard isActive, let window else { return size }
    var rows: Int32 = 0
    var columns: Int32 = 0
    if sf_get_winsize(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0,
      Size(width: Int(columns), height: Int(rows)) != size
    {
      _ = resizeterm(rows, columns)
    }
    syncSize(window)
    return size
  }

  private func syncSize(_ window: UnsafeMutablePointer<WINDOW>) {
    let current = Size(width: Int(getmaxx(window)), height: Int(getmaxy(window)))
    if current != size {
      size = current
      invalidate()
    }
  }

  /// Re-applies terminal modes after the process was stopped (Ctrl-Z) and continued.
  ///
  /// curses' own SIGTSTP handler restores the tty and the screen, but not the keypad transmit
  /// mode, so arrow keys would arrive as bare escape sequences. Call on `SIGCONT`.
  public func resumeAfterSuspend() {
    guard isActive, let window else { return }
    _ = keypad(window, true)  // always emits smkx
    _ = curs_set(1)  // curs_set only writes on a change; the tty shows the cursor again
    _ = curs_set(0)
    invalidate()
  }

  /// Makes the next ``present(_:)`` clear the screen and redraw every cell (after a resize, or
  /// when something else may have drawn on the tty).
  public func invalidate() {
    lastFrame = nil
    needsClear = true
  }

  // MARK: Drawing and input

  /// Draws `buffer`, writing only the runs that changed since the previous frame (see
  /// ``RepaintMode``), then `wnoutrefresh` + `doupdate`.
  ///
  /// A buffer smaller than the screen leaves the rest blank; a larger one is clipped.
  public func present(_ buffer: ScreenBuffer) {
    guard isActive, let window else { return }
    let full = repaintMode == .fullFrame || lastFrame?.size != buffer.size
    if full {
      _ = werase(window)
      if repaintMode == .fullFrame { needsClear = true }
    }
    if needsClear {
      needsClear = false
      _ = clearok(window, true)
    }
    let segments = FrameDiff.segments(from: full ? nil : lastFrame, to: buffer)
    let operations = DrawPlan.operations(for: segments, in: buffer) { scalar in
      Int(wcwidth(wchar_t(bitPattern: scalar.value)))
    }
    var stats = statistics
    for operation in operations {
      let (attributes, pair) = AttributeMapping.attributes(
        for: operation.style, colors: colorsEnabled)
      _ = wattr_set(window, attributes, pair, nil)
      let wide = operation.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
      _ = mvwaddnwstr(window, Int32(operation.y), Int32(operation.x), wide, Int32(wide.count))
      stats.cellsWritten += operation.cells
      stats.bytesWritten += operation.text.utf8.count
    }
    _ = wattr_set(window, SF_A_NORMAL, 0, nil)
    stats.frames += 1
    if full { stats.fullRepaints += 1 }
    stats.rowsWritten += Set(segments.map(\.y)).count
    statistics = stats
    lastFrame = buffer
    _ = wnoutrefresh(window)
    _ = doupdate()
  }

  /// The next pending key, mouse event or resize, or `nil` when no input is waiting. Never
  /// blocks (the window is in `nodelay` mode). Codes without a ``Key`` are skipped.
  public func nextKey() -> Key? {
    guard isActive, let window else { return nil }
    while true {
      var value: wint_t = 0
      let status = wget_wch(window, &value)
      if status == ERR { return nil }
      if status == KEY_CODE_YES, Int32(bitPattern: value) == KEY_MOUSE {
        var event = MEVENT()
        guard getmouse(&event) == OK else { continue }
        if let key = mouseDecoder.decode(x: Int(event.x), y: Int(event.y), buttons: event.bstate) {
          return key
        }
        continue
      }
      if status == KEY_CODE_YES, Int32(bitPattern: value) == KEY_RESIZE {
        updateSize()
        return .resize
      }
      if let key = KeyMapping.key(status: status, value: value) { return key }
    }
  }
}
