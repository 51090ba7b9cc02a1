import CNcursesw
import Glibc
import NcursesTerminal
import StoreTUI
import Testing

@Suite struct DrawPlanTests {
  /// libc width as DisplayWidth sees single scalars: the common case.
  static func agreeing(_ scalar: Unicode.Scalar) -> Int { DisplayWidth.scalarWidth(scalar) }

  @Test func segmentsBecomeOneOperationPerStyleRun() {
    var buffer = ScreenBuffer(size: Size(width: 12, height: 1))
    buffer.write("> ", x: 0, y: 0)
    buffer.write("광고 제거", x: 2, y: 0, style: .reverse)
    let operations = DrawPlan.operations(
      for: [FrameDiff.Segment(y: 0, x: 0, width: 12)], in: buffer, libcWidth: Self.agreeing)
    #expect(operations.map(\.text) == ["> ", "광고 제거", " "])
    #expect(operations.map(\.x) == [0, 2, 11])
    #expect(operations.map(\.cells) == [2, 9, 1])
    #expect(operations[1].style == .reverse)
  }

  @Test func operationsStayInsideTheirSegments() {
    var buffer = ScreenBuffer(size: Size(width: 10, height: 2))
    buffer.write("abcdefghij", x: 0, y: 1)
    let operations = DrawPlan.operations(
      for: [FrameDiff.Segment(y: 1, x: 3, width: 2), FrameDiff.Segment(y: 1, x: 8, width: 9)],
      in: buffer, libcWidth: Self.agreeing)
    #expect(operations.map(\.text) == ["de", "ij"])
    #expect(operations.map(\.x) == [3, 8])
  }

  @Test func clustersAreReducedToWhatLibcMeasuresAsTheBufferWidth() {
    var buffer = ScreenBuffer(size: Size(width: 12, height: 1))
    buffer.write("👍🏽e\u{301}👨‍👩‍👧|", x: 0, y: 0)
    let operations = DrawPlan.operations(
      for: [FrameDiff.Segment(y: 0, x: 0, width: 6)], in: buffer, libcWidth: Self.agreeing)
    // The skin tone (a second spacing scalar) and the rest of the ZWJ sequence are dropped;
    // the combining accent stays.
    #expect(operations.map(\.text) == ["👍e\u{301}👨|"])
    #expect(operations.first?.cells == 6)
  }

  @Test func disagreementsWithLibcArePaddedOrReplaced() {
    var buffer = ScreenBuffer(size: Size(width: 6, height: 1))
    buffer.write("広x", x: 0, y: 0)
    // A libc that thinks 広 is narrow and does not know x.
    let operations = DrawPlan.operations(
      for: [FrameDiff.Segment(y: 0, x: 0, width: 6)], in: buffer,
      libcWidth: { $0 == "広" ? 1 : $0 == "x" ? -1 : Self.agreeing($0) })
    #expect(operations.map(\.text) == ["広 ?   "])
    // A libc that thinks x is wide.
    let wide = DrawPlan.operations(
      for: [FrameDiff.Segment(y: 0, x: 2, width: 1)], in: buffer, libcWidth: { _ in 2 })
    #expect(wide.map(\.text) == ["?"])
  }

  @Test func realWcwidthAgreesOnCJKUnderUTF8() {
    guard setlocale(LC_CTYPE, "C.UTF-8") != nil else { return }
    for character in "광고広告去除ｱＡ│─…é".unicodeScalars {
      #expect(
        Int(wcwidth(wchar_t(bitPattern: character.value))) == DisplayWidth.scalarWidth(character),
        "\(character)")
    }
  }
}

@Suite struct TerminalMessagesTests {
  @Test(arguments: [
    TerminalError.notATerminal(stream: .standardInput), .notATerminal(stream: .standardOutput),
    .terminalTypeNotSet, .unusableTerminalType("vt-nonesuch"),
  ])
  func errorsPointToTheHeadlessRunner(error: TerminalError) {
    #expect(error.description.contains("`storefront run SCRIPT`"))
  }

  @Test func errorsNameWhatIsWrong() {
    #expect(
      TerminalError.notATerminal(stream: .standardOutput).description.contains(
        "standard output is not"))
    #expect(TerminalError.unusableTerminalType("vt-nonesuch").description.contains("'vt-nonesuch'"))
    #expect(TerminalError.terminalTypeNotSet.description.contains("TERM is not set"))
  }

  @Test func outcomeExitCodesFollowShellConventions() {
    #expect(TerminalRunLoop<Int>.Outcome.quit(exitCode: 0).exitCode == 0)
    #expect(TerminalRunLoop<Int>.Outcome.signalled(SIGINT).exitCode == 130)
    #expect(TerminalRunLoop<Int>.Outcome.signalled(SIGTERM).exitCode == 143)
    #expect(TerminalRunLoop<Int>.Outcome.signalled(SIGHUP).exitCode == 129)
  }

  @Test func interactiveCheckMatchesIsatty() {
    let interactive = isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
    let passed = (try? NcursesTerminal.requireInteractive()) != nil
    #expect(passed == interactive)
  }
}
