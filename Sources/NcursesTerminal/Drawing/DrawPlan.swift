import StoreTUI

/// The text writes that put segments of a frame on screen. Pure: the width function is injected.
///
/// Curses advances its cursor by libc's `wcwidth`, which can disagree with ``DisplayWidth`` for
/// emoji sequences and characters newer than the C library. A disagreement would shift the rest
/// of the row, so each cell's text is made to take exactly the cells the buffer gives it: extra
/// spacing scalars of a cluster are dropped (`👍🏽` → `👍`), a narrower glyph is padded with a
/// space, and a glyph libc cannot size is drawn as `?`.
public enum DrawPlan {
  /// One positioned write in one style.
  public struct Operation: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var style: Style
    /// Text whose libc width equals ``cells``.
    public var text: String
    public var cells: Int
  }

  /// Writes for `segments` of `buffer`, one per style run.
  ///
  /// - Parameter libcWidth: `wcwidth` of one scalar (-1 for unprintable).
  public static func operations(
    for segments: [FrameDiff.Segment], in buffer: ScreenBuffer,
    libcWidth: (Unicode.Scalar) -> Int
  ) -> [Operation] {
    var result: [Operation] = []
    for segment in segments {
      var current: Operation?
      for x in segment.x..<min(segment.x + segment.width, buffer.size.width) {
        let cell = buffer[x, segment.y]
        guard let character = cell.character else { continue }
        let cells = DisplayWidth.of(character)
        let text = safeText(character, cells: cells, libcWidth: libcWidth)
        if let run = current, run.style == cell.style, run.x + run.cells == x {
          // Appended in place: copying the run out and back would copy its text on every cell.
          current?.text += text
          current?.cells += cells
        } else {
          if let run = current { result.append(run) }
          current = Operation(x: x, y: segment.y, style: cell.style, text: text, cells: cells)
        }
      }
      if let run = current { result.append(run) }
    }
    return result
  }

  /// `character` rewritten so libc measures it as exactly `cells` wide.
  static func safeText(_ character: Character, cells: Int, libcWidth: (Unicode.Scalar) -> Int)
    -> String
  {
    let scalars = character.unicodeScalars
    guard let base = scalars.first else { return String(repeating: " ", count: cells) }
    let baseWidth = libcWidth(base)
    if scalars.count == 1, baseWidth == cells { return String(character) }
    guard baseWidth > 0, baseWidth <= cells else { return String(repeating: "?", count: cells) }
    var text = String(base)
    // Keep the zero-width marks that follow the base (accents, variation selectors) and drop
    // everything from the next spacing scalar on.
    for scalar in scalars.dropFirst() {
      guard libcWidth(scalar) == 0, scalar.value != 0x200D else { break }
      text.unicodeScalars.append(scalar)
    }
    return text + String(repeating: " ", count: cells - baseWidth)
  }
}
