/// Counters of what ``NcursesTerminal/present(_:)`` handed to curses, for comparing incremental
/// redraws with full repaints.
///
/// These count our writes into curses' window, not the bytes curses finally sends to the tty
/// (curses diffs once more against its own idea of the screen).
public struct PresentStatistics: Hashable, Sendable {
  /// Frames presented.
  public var frames = 0
  /// Frames drawn in full (first frame, after a resize, or in full-frame mode).
  public var fullRepaints = 0
  /// Rows that received at least one write.
  public var rowsWritten = 0
  /// Cells written.
  public var cellsWritten = 0
  /// UTF-8 bytes of the text written.
  public var bytesWritten = 0

  public init() {}
}
