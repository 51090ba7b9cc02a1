import StoreTUI
import Testing

/// Cells a string takes in a terminal, as ``DisplayWidth`` counts them (the screen buffer, the
/// tables and the CLI's aligned listings all size text with it).
@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("", 0), ("Remove Ads", 10), ("a\tb", 2), ("\u{7F}", 0),
    ("광고 제거", 9), ("広告削除", 8), ("ｱ", 1), ("Ａ", 2), ("…│─", 3),
    ("é", 1), ("e\u{301}", 1), ("a\u{200B}b", 2),
    ("👍", 2), ("👍🏽", 2), ("🇰🇷", 2), ("👩‍💻", 2), ("❤️", 2), ("❤", 1),
  ])
  func cells(_ text: String, _ width: Int) {
    #expect(DisplayWidth.of(text) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    #expect(text.displayWidth == width)
  }

  @Test func scalarsFollowEastAsianWidth() {
    #expect(DisplayWidth.scalarWidth("a") == 1)
    #expect(DisplayWidth.scalarWidth("\u{1100}") == 2)  // Hangul initial consonant
    #expect(DisplayWidth.scalarWidth("\u{1161}") == 0)  // Hangul medial vowel
    #expect(DisplayWidth.scalarWidth("\u{0301}") == 0)  // combining acute accent
    #expect(DisplayWidth.scalarWidth("\u{0}") == 0)
    #expect(DisplayWidth.scalarWidth("\u{9F}") == 0)
  }

  @Test func truncationEndsInAnEllipsisAndNeverSplitsAWideCharacter() {
    #expect("広告削除".truncated(toWidth: 5) == "広告…")
    #expect("Remove Ads Forever".truncated(toWidth: 8) == "Remove …")
    #expect("a広".truncated(toWidth: 2) == "a…")
    #expect("fits".truncated(toWidth: 4) == "fits")
    #expect("anything".truncated(toWidth: 0) == "")
  }

  @Test func paddingFillsToExactlyTheWidth() {
    #expect("広".padded(toWidth: 4) == "広  ")
    #expect("広".padded(toWidth: 4, alignRight: true) == "  広")
    #expect("abc".padded(toWidth: 2) == "a…")
    #expect("광고 제거".padded(toWidth: 10).displayWidth == 10)
  }
}
