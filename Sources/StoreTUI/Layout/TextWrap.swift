/// Word wrapping by display width (CJK text without spaces breaks between characters).
public enum TextWrap {
  /// `text` broken into lines of at most `width` cells; explicit newlines are kept.
  public static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      var lineWidth = 0
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
        let wordWidth = DisplayWidth.of(word)
        let needed = lineWidth == 0 ? wordWidth : lineWidth + 1 + wordWidth
        if needed <= width {
          if lineWidth > 0 { line += " " }
          line += word
          lineWidth = needed
          continue
        }
        if lineWidth > 0 {
          lines.append(line)
          line = ""
          lineWidth = 0
        }
        // A word longer than the line is split between characters.
        for character in word {
          let cells = DisplayWidth.of(character)
          if lineWidth + cells > width {
            lines.append(line)
            line = ""
            lineWidth = 0
          }
          line.append(character)
          lineWidth += cells
        }
      }
      lines.append(line)
    }
    return lines
  }
}
