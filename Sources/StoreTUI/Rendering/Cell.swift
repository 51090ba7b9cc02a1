/// One terminal cell.
///
/// A wide character (CJK, emoji) occupies two cells: a lead cell holding the character and a
/// continuation cell holding `nil`, so column arithmetic on a row stays in display cells.
public struct Cell: Hashable, Sendable {
  /// The grapheme drawn here, or `nil` on the right half of a wide character.
  public var character: Character?
  public var style: Style

  public init(_ character: Character?, style: Style = .plain) {
    self.character = character
    self.style = style
  }

  /// A space in the default style.
  public static let blank = Cell(" ")

  /// Whether this is the right half of a wide character.
  public var isContinuation: Bool { character == nil }
}
