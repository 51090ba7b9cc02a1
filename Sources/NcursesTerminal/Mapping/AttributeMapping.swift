import CNcursesw
import StoreTUI

/// How ``Style``s become curses attributes and colour pairs. Pure: usable without `initscr`.
public enum AttributeMapping {
  /// Foreground colour of each role's pair; roles without an entry use attributes only.
  static let foregrounds: [(role: ColorRole, pair: Int16, color: Int16)] = [
    (.accent, 1, Int16(COLOR_CYAN)),
    (.success, 2, Int16(COLOR_GREEN)),
    (.warning, 3, Int16(COLOR_YELLOW)),
    (.error, 4, Int16(COLOR_RED)),
  ]

  /// The colour pair for `role`, or 0 (default colours) for roles drawn with attributes.
  public static func pair(for role: ColorRole?) -> Int16 {
    guard let role else { return 0 }
    return foregrounds.first { $0.role == role }?.pair ?? 0
  }

  /// Curses attributes and colour pair for `style`.
  ///
  /// Without colours the role's ``ColorRole/monochromeAttributes`` stand in. `muted` is dim text
  /// in both modes: a grey pair is unreadable on some light themes.
  public static func attributes(for style: Style, colors: Bool) -> (attributes: attr_t, pair: Int16)
  {
    let effective = colors ? style : style.monochrome
    var attributes = SF_A_NORMAL
    if effective.attributes.contains(.bold) { attributes |= SF_A_BOLD }
    if effective.attributes.contains(.reverse) { attributes |= SF_A_REVERSE }
    if effective.attributes.contains(.dim) || effective.color == .muted { attributes |= SF_A_DIM }
    if effective.attributes.contains(.underline) { attributes |= SF_A_UNDERLINE }
    return (attributes, colors ? pair(for: effective.color) : 0)
  }

  /// Whether to use colours: the terminal has them, the mode allows them and `NO_COLOR` is unset
  /// or empty (https://no-color.org).
  public static func wantsColors(
    mode: NcursesTerminal.ColorMode, terminalHasColors: Bool, environment: [String: String]
  ) -> Bool {
    switch mode {
    case .never: return false
    case .automatic:
      guard terminalHasColors else { return false }
      return environment["NO_COLOR", default: ""].isEmpty
    }
  }
}
