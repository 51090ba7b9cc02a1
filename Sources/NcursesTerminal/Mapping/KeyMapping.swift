import CNcursesw
import StoreTUI

/// Translates what `wget_wch` returns into ``Key``. Pure: usable without `initscr`.
public enum KeyMapping {
  /// The key for a `wget_wch` result.
  ///
  /// - Parameters:
  ///   - status: `OK` for a character, `KEY_CODE_YES` for a function-key code.
  ///   - value: the character or key code.
  /// - Returns: `nil` for codes with no ``Key`` (and for `KEY_MOUSE`, which needs `getmouse`).
  public static func key(status: Int32, value: UInt32) -> Key? {
    status == KEY_CODE_YES ? key(forKeyCode: Int32(bitPattern: value)) : key(forCharacter: value)
  }

  /// The key for a character `wget_wch` returned with `OK`.
  ///
  /// With `nonl`, Enter arrives as CR. Ctrl-H, Ctrl-I and Ctrl-M are indistinguishable from
  /// Backspace, Tab and Enter on a terminal and are reported as those.
  public static func key(forCharacter value: UInt32) -> Key? {
    switch value {
    case 0x0D, 0x0A: return .enter
    case 0x09: return .tab
    case 0x1B: return .escape
    case 0x08, 0x7F: return .backspace
    case 0x01...0x1A:
      guard let letter = Unicode.Scalar(value + 0x60) else { return nil }
      return .ctrl(Character(letter))
    case 0x00, 0x1C...0x1F, 0x80...0x9F:
      return nil
    default:
      guard let scalar = Unicode.Scalar(value) else { return nil }
      return .char(Character(scalar))
    }
  }

  /// The key for a curses key code (`KEY_UP`, `KEY_F(5)`, …) that `wget_wch` returned with
  /// `KEY_CODE_YES`.
  public static func key(forKeyCode code: Int32) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_HOME, KEY_A1: return .home
    case KEY_END, KEY_C1: return .end
    case KEY_ENTER: return .enter
    case KEY_BTAB: return .backTab
    case KEY_BACKSPACE: return .backspace
    case KEY_DC: return .delete
    case KEY_RESIZE: return .resize
    case sf_KEY_F(1)...sf_KEY_F(63): return .function(Int(code - sf_KEY_F(0)))
    default: return nil
    }
  }
}
