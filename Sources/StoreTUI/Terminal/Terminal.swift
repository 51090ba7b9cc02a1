/// A screen that shows ``ScreenBuffer`` frames and produces ``Key`` input.
///
/// The app talks to this protocol only, so its loop can run against ``MemoryTerminal`` in tests
/// and against the ncurses adapter in the real program. Terminals are confined to the main actor
/// because curses is not thread-safe.
@MainActor
public protocol Terminal: AnyObject {
  /// The current size in cells.
  var size: Size { get }
  /// Shows `buffer`, drawing only what changed since the last frame where possible.
  func present(_ buffer: ScreenBuffer)
  /// The next pending input, or `nil` when none is waiting. Never blocks.
  func nextKey() -> Key?
}
