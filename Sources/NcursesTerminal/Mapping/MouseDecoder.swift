import CNcursesw
import StoreTUI

/// Turns `getmouse` reports into ``MouseEvent``s. Pure apart from remembering the last press.
///
/// The terminal runs with `mouseinterval(0)` (no click-detection delay). ncurses then reports a
/// slow click as press + release, but a fast one, whose press and release arrive in one read, as
/// the release alone. So a release is a ``MouseEvent/Kind/click`` unless it ends a drag (a press
/// seen at another cell), which is a ``MouseEvent/Kind/release``.
public struct MouseDecoder: Sendable {
  private var pressedAt: Point?

  public init() {}

  /// The key for one mouse report at 0-based cell (`x`, `y`) with `buttons` state bits.
  public mutating func decode(x: Int, y: Int, buttons: mmask_t) -> Key? {
    let point = Point(x: x, y: y)
    let kind: MouseEvent.Kind
    if buttons & SF_BUTTON4_PRESSED != 0 {
      kind = .wheelUp
    } else if buttons & SF_BUTTON5_PRESSED != 0 {
      kind = .wheelDown
    } else if buttons & (SF_BUTTON1_CLICKED | SF_BUTTON1_DOUBLE_CLICKED | SF_BUTTON1_TRIPLE_CLICKED)
      != 0
    {
      pressedAt = nil
      kind = .click
    } else if buttons & SF_BUTTON1_PRESSED != 0 {
      pressedAt = point
      kind = .press
    } else if buttons & SF_BUTTON1_RELEASED != 0 {
      let start = pressedAt
      pressedAt = nil
      kind = start == nil || start == point ? .click : .release
    } else {
      return nil
    }
    return .mouse(MouseEvent(x: x, y: y, kind: kind))
  }
}
