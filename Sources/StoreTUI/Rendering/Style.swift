/// How a cell is drawn: text attributes plus an optional semantic colour.
///
/// Colours are roles, not palette entries, so the terminal adapter decides how each role looks and
/// can fall back to attributes when colours are off (`NO_COLOR`, monochrome terminals). Anything
/// that must stay visible without colour, such as the selected row, uses ``Attributes/reverse``.
public struct Style: Hashable, Sendable {
  /// Text attributes every terminal supports.
  public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = Attributes(rawValue: 1 << 0)
    public static let reverse = Attributes(rawValue: 1 << 1)
    public static let dim = Attributes(rawValue: 1 << 2)
    public static let underline = Attributes(rawValue: 1 << 3)
  }

  public var attributes: Attributes
  /// The colour role, or `nil` for the terminal's default colours.
  public var color: ColorRole?

  public init(_ attributes: Attributes = [], color: ColorRole? = nil) {
    self.attributes = attributes
    self.color = color
  }

  /// Default colours, no attributes.
  public static let plain = Style()
  public static let bold = Style(.bold)
  public static let reverse = Style(.reverse)
  public static let dim = Style(.dim)
  public static let underline = Style(.underline)
  public static let accent = Style(color: .accent)
  public static let success = Style(color: .success)
  public static let warning = Style(color: .warning)
  public static let error = Style(color: .error)
  public static let muted = Style(color: .muted)

  /// This style with `extra` attributes added.
  public func adding(_ extra: Attributes) -> Style {
    Style(attributes.union(extra), color: color)
  }

  /// This style with the colour role replaced.
  public func colored(_ role: ColorRole?) -> Style {
    Style(attributes, color: role)
  }

  /// The style as drawn without colours: the role is dropped and replaced by its
  /// ``ColorRole/monochromeAttributes`` so errors and warnings still stand out.
  public var monochrome: Style {
    guard let color else { return self }
    return Style(attributes.union(color.monochromeAttributes))
  }
}

/// Semantic colour roles. The terminal adapter maps each to a colour pair.
public enum ColorRole: String, CaseIterable, Hashable, Sendable {
  /// Headings, focused items, buttons.
  case accent
  /// Completed purchases, owned items.
  case success
  /// Pending, deferred, interrupted.
  case warning
  /// Failures and error messages.
  case error
  /// Secondary text: hints, ids, timestamps.
  case muted

  /// Attributes standing in for the colour when colours are off.
  public var monochromeAttributes: Style.Attributes {
    switch self {
    case .accent, .warning, .error: .bold
    case .success: []
    case .muted: .dim
    }
  }
}
