import StoreTUI

/// Which cells of a new frame must be written, given the frame already on screen. Pure.
public enum FrameDiff {
  /// Columns `x ..< x + width` of row `y`.
  public struct Segment: Hashable, Sendable {
    public var y: Int
    public var x: Int
    public var width: Int

    public init(y: Int, x: Int, width: Int) {
      self.y = y
      self.x = x
      self.width = width
    }
  }

  /// The segments to rewrite to turn `old` into `new`, top to bottom, left to right.
  ///
  /// Unchanged rows are skipped by a row comparison first. Within a changed row, differing cells
  /// form segments; segments separated by at most `mergeGap` unchanged cells are merged, since a
  /// cursor move costs about as much as a few characters. Segments always cover whole wide
  /// characters. Without an `old` frame (or with a different size), every row is one segment.
  ///
  /// - Complexity: O(cells) for changed rows; a row comparison for unchanged ones.
  public static func segments(from old: ScreenBuffer?, to new: ScreenBuffer, mergeGap: Int = 3)
    -> [Segment]
  {
    let width = new.size.width
    guard width > 0 else { return [] }
    guard let old, old.size == new.size else {
      return (0..<new.size.height).map { Segment(y: $0, x: 0, width: width) }
    }
    var result: [Segment] = []
    for y in 0..<new.size.height {
      let before = old.row(y)
      let after = new.row(y)
      if before == after { continue }
      var rowSegments: [Segment] = []
      var x = 0
      while x < width {
        guard before[x] != after[x] else {
          x += 1
          continue
        }
        var end = x + 1
        while end < width, before[end] != after[end] { end += 1 }
        var start = x
        if after[start].isContinuation, start > 0 { start -= 1 }
        if end < width, after[end].isContinuation { end += 1 }
        if let last = rowSegments.last, start - (last.x + last.width) <= mergeGap {
          rowSegments[rowSegments.count - 1].width = end - last.x
        } else {
          rowSegments.append(Segment(y: y, x: start, width: end - start))
        }
        x = end
      }
      result.append(contentsOf: rowSegments)
    }
    return result
  }
}
