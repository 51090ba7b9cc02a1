import CNcursesw
import NcursesTerminal
import StoreTUI
import Testing

@Suite struct AttributeMappingTests {
  @Test func attributesMapToCursesBits() {
    let styled = AttributeMapping.attributes(
      for: Style([.bold, .reverse, .underline]), colors: true)
    #expect(styled.attributes == SF_A_BOLD | SF_A_REVERSE | SF_A_UNDERLINE)
    #expect(styled.pair == 0)
    #expect(AttributeMapping.attributes(for: .dim, colors: true).attributes == SF_A_DIM)
    #expect(AttributeMapping.attributes(for: .plain, colors: false).attributes == SF_A_NORMAL)
  }

  @Test func colorRolesUseDistinctPairsWhenColorsAreOn() {
    let pairs = [ColorRole.accent, .success, .warning, .error].map {
      AttributeMapping.pair(for: $0)
    }
    #expect(Set(pairs).count == 4)
    #expect(!pairs.contains(0))
    #expect(AttributeMapping.pair(for: nil) == 0)
    #expect(
      AttributeMapping.attributes(for: .error, colors: true) == (
        SF_A_NORMAL, AttributeMapping.pair(for: .error)
      ))
    #expect(AttributeMapping.attributes(for: .muted, colors: true) == (SF_A_DIM, 0))
  }

  @Test func withoutColorsRolesBecomeAttributesAndReverseSurvives() {
    #expect(AttributeMapping.attributes(for: .error, colors: false) == (SF_A_BOLD, 0))
    #expect(AttributeMapping.attributes(for: .muted, colors: false) == (SF_A_DIM, 0))
    #expect(AttributeMapping.attributes(for: .success, colors: false) == (SF_A_NORMAL, 0))
    let selected = AttributeMapping.attributes(for: Style(.reverse, color: .accent), colors: false)
    #expect(selected == (SF_A_REVERSE | SF_A_BOLD, 0))
  }

  @Test(arguments: [
    (NcursesTerminal.ColorMode.automatic, true, [String: String](), true),
    (.automatic, true, ["NO_COLOR": "1"], false),
    (.automatic, true, ["NO_COLOR": ""], true),  // no-color.org: only a non-empty value counts
    (.automatic, false, [:], false),
    (.never, true, [:], false),
  ])
  func colorsFollowModeTerminalAndNoColor(
    mode: NcursesTerminal.ColorMode, hasColors: Bool, environment: [String: String], expected: Bool
  ) {
    #expect(
      AttributeMapping.wantsColors(
        mode: mode, terminalHasColors: hasColors, environment: environment)
        == expected)
  }
}
