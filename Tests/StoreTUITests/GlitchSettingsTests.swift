import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The Settings rows of the real store's glitches (DECISIONS §46): each cycles off, next, on, 1 in 5
/// (seed 1), and the store's controls, which attached apps follow, change with it.
@MainActor
@Suite struct GlitchSettingsTests {
  @Test func eachGlitchRowCyclesItsSettingsAndSetsTheControl() throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    for glitch in StoreGlitch.allCases {
      try selectSettingsRow(.glitch(glitch), runtime)
      #expect(SettingsItem.glitch(glitch).value(in: runtime.state) == "off")
      var seen: [GlitchSetting?] = []
      for _ in 0..<4 {
        press(runtime, .enter)
        seen.append(store.queue.controls.glitches[glitch])
      }
      #expect(seen == [.next(1), .every, .oneIn(5, seed: 1), nil], "\(glitch)")
    }
    press(runtime, .enter)
    #expect(SettingsItem.glitch(.renewalReceiptDialog).value(in: runtime.state) == "next")
    #expect(SettingsItem.all.contains(.glitch(.cancelledAfterSuccess)))
    #expect(SettingsItem.glitch(.daemonDrop).label == "Glitch: daemon connection drops")
  }
}
