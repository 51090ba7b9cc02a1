/// An in-memory ``Terminal``: keys are queued by the test, frames are kept for inspection.
///
/// Useful for driving an app loop headlessly and asserting on ``lastFrame``'s
/// ``ScreenBuffer/plainText``.
@MainActor
public final class MemoryTerminal: Terminal {
  public private(set) var size: Size
  /// Every frame presented, oldest first.
  public private(set) var frames: [ScreenBuffer] = []
  private var pendingKeys: [Key] = []

  public init(size: Size) {
    self.size = size
  }

  /// The most recently presented frame.
  public var lastFrame: ScreenBuffer? { frames.last }

  public func present(_ buffer: ScreenBuffer) { frames.append(buffer) }

  public func nextKey() -> Key? {
    pendingKeys.isEmpty ? nil : pendingKeys.removeFirst()
  }

  /// Queues input for ``nextKey()``.
  public func type(_ keys: Key...) { pendingKeys.append(contentsOf: keys) }

  /// Queues each character of `text` as ``Key/char(_:)``.
  public func type(text: String) { pendingKeys.append(contentsOf: text.map { Key.char($0) }) }

  /// Changes the size and queues ``Key/resize``, as a real terminal does.
  public func resize(to newSize: Size) {
    size = newSize
    pendingKeys.append(.resize)
  }
}
