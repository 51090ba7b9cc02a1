/// Terminal display width of text: how many cells a string takes in a monospace terminal.
///
/// East Asian wide and fullwidth characters and emoji take two cells; combining marks, zero-width
/// joiners and variation selectors take none. Counted per grapheme cluster, so `👍🏽` and `🇰🇷` are
/// two cells, matching what terminals (and tmux) draw.
public enum DisplayWidth {
  /// Cells taken by `text`.
  public static func of(_ text: some StringProtocol) -> Int {
    // Most text on screen is ASCII: count printable bytes without forming grapheme clusters.
    var asciiWidth = 0
    var isASCII = true
    for byte in text.utf8 {
      if byte >= 0x80 {
        isASCII = false
        break
      }
      if byte >= 0x20 && byte != 0x7F { asciiWidth += 1 }
    }
    if isASCII { return asciiWidth }
    var total = 0
    for character in text { total += of(character) }
    return total
  }

  /// Cells taken by one grapheme cluster: 0, 1 or 2.
  public static func of(_ character: Character) -> Int {
    if let ascii = character.asciiValue { return ascii < 0x20 || ascii == 0x7F ? 0 : 1 }
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.isASCII {
      return first.value < 0x20 || first.value == 0x7F ? 0 : 1
    }
    // Emoji presentation (including flags, skin tones and ZWJ sequences) is two cells.
    if scalars.contains(where: { $0.properties.isEmojiPresentation })
      || scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji
    {
      return 2
    }
    return scalarWidth(first)
  }

  /// Width of a single scalar, following wcwidth's East Asian Width rules.
  public static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value == 0 { return 0 }
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and final consonants
    return isWide(value) ? 2 : 1
  }

  private static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
      0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
      0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
      0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
      0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
      0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
      0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF,
      0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F,
      0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF,
      0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}

extension String {
  /// Cells this string takes in a terminal.
  public var displayWidth: Int { DisplayWidth.of(self) }

  /// The string cut to at most `width` cells, ending in `…` when cut; never splits a wide character.
  public func truncated(toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    if displayWidth <= width { return self }
    var result = ""
    var used = 0
    for character in self {
      let cells = DisplayWidth.of(character)
      if used + cells > width - 1 { break }
      result.append(character)
      used += cells
    }
    return result + "…"
  }

  /// The string truncated to `width` cells and padded with spaces to exactly `width` cells.
  public func padded(toWidth width: Int, alignRight: Bool = false) -> String {
    let cut = truncated(toWidth: width)
    let padding = String(repeating: " ", count: max(0, width - cut.displayWidth))
    return alignRight ? padding + cut : cut + padding
  }
}
