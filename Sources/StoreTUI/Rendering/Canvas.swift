/// A drawing surface over a region of a ``ScreenBuffer``.
///
/// Coordinates are local to the region (0, 0 is its top-left corner) and every drawing call is
/// clipped to it, so a view function can draw without knowing where it sits:
///
/// ```swift
/// var buffer = ScreenBuffer(size: size)
/// buffer.draw { canvas in
///   canvas.text("Storefront", x: 1, y: 0, style: .bold)
///   canvas.withRegion(Rect(x: 0, y: 2, width: canvas.size.width, height: 10)) { table in
///     catalogView(state, in: &table)
///   }
/// }
/// ```
public struct Canvas {
  /// The buffer being drawn into; moved in and out by ``ScreenBuffer/draw(_:)`` without copying.
  public internal(set) var buffer: ScreenBuffer
  /// The region in buffer coordinates (already clipped to the buffer).
  public let frame: Rect

  init(buffer: ScreenBuffer, frame: Rect) {
    self.buffer = buffer
    self.frame = frame.intersection(buffer.bounds)
  }

  /// The region's size.
  public var size: Size { frame.size }
  /// The region in local coordinates.
  public var bounds: Rect { Rect(size: frame.size) }

  /// Converts a local rectangle to buffer (screen) coordinates, clipped to the region: the form
  /// mouse events use.
  public func screenRect(_ local: Rect) -> Rect {
    local.offsetBy(dx: frame.x, dy: frame.y).intersection(frame)
  }

  /// Runs `body` on a sub-region given in local coordinates (clipped to this region).
  @discardableResult
  public mutating func withRegion<T>(_ local: Rect, _ body: (inout Canvas) throws -> T) rethrows
    -> T
  {
    var child = Canvas(buffer: ScreenBuffer(size: .zero), frame: .zero)
    swap(&child.buffer, &buffer)
    child = Canvas(buffer: child.buffer, frame: screenRect(local))
    defer { swap(&child.buffer, &buffer) }
    return try body(&child)
  }

  // MARK: Primitives

  /// Fills a local rectangle (default: the whole region).
  public mutating func fill(
    _ local: Rect? = nil, with character: Character = " ", style: Style = .plain
  ) {
    buffer.fill(screenRect(local ?? bounds), with: character, style: style)
  }

  /// Restyles a local rectangle, keeping its characters (e.g. reverse video for a selected row).
  public mutating func applyStyle(_ style: Style, to local: Rect) {
    buffer.applyStyle(style, to: screenRect(local))
  }

  /// Draws one character at a local position.
  @discardableResult
  public mutating func put(_ character: Character, x: Int, y: Int, style: Style = .plain) -> Int {
    buffer.put(character, x: frame.x + x, y: frame.y + y, style: style, clip: frame)
  }

  /// Text alignment inside a width.
  public enum Alignment: Sendable {
    case left
    case right
    case center
  }

  /// Draws `text` on one line, truncated with `…` by display width.
  ///
  /// Newlines and tabs become spaces. The text is cut to `width` (or to the space left before the
  /// region's right edge, whichever is smaller); with a `width` and an alignment other than
  /// `.left`, it is placed inside that width. A wide character is never split.
  ///
  /// - Returns: the display width drawn.
  @discardableResult
  public mutating func text(
    _ text: String, x: Int, y: Int, width: Int? = nil, style: Style = .plain,
    align: Alignment = .left
  ) -> Int {
    let available = min(width ?? Int.max, size.width - x)
    guard available > 0, y >= 0, y < size.height else { return 0 }
    if let count = ASCIIText.printableCount(text.utf8) {
      // One cell per byte and nothing to clean: cut by count, keeping the general path's `…`.
      guard count > available else {
        buffer.write(
          printableASCII: text, count: count, x: frame.x + aligned(x, width, available, count, align), y: frame.y + y,
          style: style, clip: frame)
        return count
      }
      let end = buffer.write(
        printableASCII: text.prefix(available - 1),
        count: available - 1, x: frame.x + x, y: frame.y + y, style: style, clip: frame)
      buffer.put("…", x: end, y: frame.y + y, style: style, clip: frame)
      return available
    }
    let cleaned = Canvas.singleLine(text)
    let cut = cleaned.truncated(toWidth: available)
    let cutWidth = cut.displayWidth
    buffer.write(cut, x: frame.x + aligned(x, width, available, cutWidth, align), y: frame.y + y, style: style, clip: frame)
    return cutWidth
  }

  /// Where text `cutWidth` wide starts when placed at `x` inside `width` (if it fits `available`).
  private func aligned(_ x: Int, _ width: Int?, _ available: Int, _ cutWidth: Int, _ align: Alignment) -> Int {
    guard let width, width <= available else { return x }
    switch align {
    case .left: return x
    case .right: return x + width - cutWidth
    case .center: return x + (width - cutWidth) / 2
    }
  }

  static func singleLine(_ text: String) -> String {
    // Newlines and tabs all begin with a scalar that is one (`\r\n` is one grapheme).
    guard text.unicodeScalars.contains(where: { isBreak($0) }) else { return text }
    return String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }

  private static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }
}

extension ScreenBuffer {
  /// Draws into the whole buffer through a ``Canvas``.
  @discardableResult
  public mutating func draw<T>(_ body: (inout Canvas) throws -> T) rethrows -> T {
    try draw(in: bounds, body)
  }

  /// Draws into `rect` (buffer coordinates) through a ``Canvas`` clipped to it.
  @discardableResult
  public mutating func draw<T>(in rect: Rect, _ body: (inout Canvas) throws -> T) rethrows -> T {
    var canvas = Canvas(buffer: ScreenBuffer(size: .zero), frame: .zero)
    swap(&canvas.buffer, &self)
    canvas = Canvas(buffer: canvas.buffer, frame: rect)
    defer { swap(&canvas.buffer, &self) }
    return try body(&canvas)
  }
}
