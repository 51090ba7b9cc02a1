import CNcursesw
import NcursesTerminal
import StoreTUI
import Testing

@Suite struct KeyMappingTests {
  @Test(arguments: [
    (UInt32(0x0D), Key.enter), (0x0A, .enter), (0x09, .tab), (0x1B, .escape), (0x7F, .backspace),
    (0x08, .backspace), (0x03, .ctrl("c")), (0x01, .ctrl("a")), (0x1A, .ctrl("z")),
    (0x71, .char("q")), (0x20, .char(" ")), (0xAD11, .char("광")), (0x5E83, .char("広")),
    (0x1F389, .char("🎉")),
  ])
  func charactersMapToKeys(value: UInt32, key: Key) {
    #expect(KeyMapping.key(forCharacter: value) == key)
    #expect(KeyMapping.key(status: OK, value: value) == key)
  }

  @Test(arguments: [UInt32(0x00), 0x1C, 0x1F, 0x85, 0xD800, 0x110000])
  func unmappableCharactersAreDropped(value: UInt32) {
    #expect(KeyMapping.key(forCharacter: value) == nil)
  }

  @Test(arguments: [
    (KEY_UP, Key.up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
    (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown), (KEY_HOME, .home), (KEY_END, .end),
    (KEY_ENTER, .enter), (KEY_BTAB, .backTab), (KEY_BACKSPACE, .backspace), (KEY_DC, .delete),
    (KEY_RESIZE, .resize), (sf_KEY_F(1), .function(1)), (sf_KEY_F(12), .function(12)),
  ])
  func keyCodesMapToKeys(code: Int32, key: Key) {
    #expect(KeyMapping.key(forKeyCode: code) == key)
    #expect(KeyMapping.key(status: KEY_CODE_YES, value: UInt32(code)) == key)
  }

  @Test func mouseAndUnknownCodesHaveNoKey() {
    #expect(KeyMapping.key(forKeyCode: KEY_MOUSE) == nil)  // read with getmouse instead
    #expect(KeyMapping.key(forKeyCode: KEY_IC) == nil)
    #expect(KeyMapping.key(forKeyCode: 9999) == nil)
    // KEY_CODE_YES decides: 0x103 is KEY_UP as a code but 'ă' as a character.
    #expect(KeyMapping.key(status: OK, value: UInt32(KEY_UP)) == .char("ă"))
  }
}

@Suite struct MouseDecoderTests {
  @Test func slowClickIsPressThenClick() {
    var decoder = MouseDecoder()
    #expect(
      decoder.decode(x: 4, y: 2, buttons: SF_BUTTON1_PRESSED)
        == .mouse(MouseEvent(x: 4, y: 2, kind: .press)))
    #expect(
      decoder.decode(x: 4, y: 2, buttons: SF_BUTTON1_RELEASED)
        == .mouse(MouseEvent(x: 4, y: 2, kind: .click)))
  }

  @Test func releaseWithoutPressIsClick() {
    // With mouseinterval(0), ncurses reports a fast click's press and release as the release alone.
    var decoder = MouseDecoder()
    #expect(
      decoder.decode(x: 10, y: 7, buttons: SF_BUTTON1_RELEASED)
        == .mouse(MouseEvent(x: 10, y: 7, kind: .click)))
  }

  @Test func releaseAwayFromPressIsADrag() {
    var decoder = MouseDecoder()
    _ = decoder.decode(x: 1, y: 1, buttons: SF_BUTTON1_PRESSED)
    #expect(
      decoder.decode(x: 9, y: 1, buttons: SF_BUTTON1_RELEASED)
        == .mouse(MouseEvent(x: 9, y: 1, kind: .release)))
    // The press is forgotten afterwards.
    #expect(
      decoder.decode(x: 9, y: 1, buttons: SF_BUTTON1_RELEASED)
        == .mouse(MouseEvent(x: 9, y: 1, kind: .click)))
  }

  @Test func wheelAndClickedReports() {
    var decoder = MouseDecoder()
    #expect(
      decoder.decode(x: 0, y: 3, buttons: SF_BUTTON4_PRESSED)
        == .mouse(MouseEvent(x: 0, y: 3, kind: .wheelUp)))
    #expect(
      decoder.decode(x: 0, y: 3, buttons: SF_BUTTON5_PRESSED)
        == .mouse(MouseEvent(x: 0, y: 3, kind: .wheelDown)))
    #expect(
      decoder.decode(x: 2, y: 2, buttons: SF_BUTTON1_CLICKED)
        == .mouse(MouseEvent(x: 2, y: 2, kind: .click)))
    #expect(
      decoder.decode(x: 2, y: 2, buttons: SF_BUTTON1_DOUBLE_CLICKED)
        == .mouse(MouseEvent(x: 2, y: 2, kind: .click)))
    #expect(decoder.decode(x: 2, y: 2, buttons: 0) == nil)
  }
}
