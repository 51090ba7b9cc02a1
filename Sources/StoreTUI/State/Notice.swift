import Foundation

/// A brief, non-blocking message on the status line that goes away by itself.
public struct Notice: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    case info
    case success
    case error
  }

  public var text: String
  public var kind: Kind
  /// The first tick that saw the notice; it disappears ``Notice/duration`` after that.
  public var shownAt: Date?

  public init(_ text: String, kind: Kind = .info, shownAt: Date? = nil) {
    self.text = text
    self.kind = kind
    self.shownAt = shownAt
  }

  /// How long a notice stays up, in real (tick) time.
  public static let duration: TimeInterval = 4
}

/// The last lines of the observer log, oldest first, capped so a long session stays cheap.
public struct LogBuffer: Equatable, Sendable {
  /// Lines kept; older ones are dropped.
  public let capacity: Int
  private var lines: [String] = []
  private var removed = 0

  public init(capacity: Int = 1000) {
    self.capacity = max(1, capacity)
  }

  /// Appends lines, dropping the oldest beyond ``capacity``.
  public mutating func append(_ newLines: [String]) {
    lines.append(contentsOf: newLines)
    // Drop in chunks so appends stay amortised O(1).
    if lines.count > capacity + capacity / 4 {
      let excess = lines.count - capacity
      lines.removeFirst(excess)
      removed += excess
    }
  }

  /// How many lines the pane can show (at most ``capacity``).
  public var count: Int { min(lines.count, capacity) }

  /// Lines no longer shown (so the pane can say so).
  public var dropped: Int { removed + lines.count - count }

  /// Line `index` of the last ``count`` lines.
  public subscript(index: Int) -> String { lines[lines.count - count + index] }
}
