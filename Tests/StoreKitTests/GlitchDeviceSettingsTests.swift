import Foundation
import StoreEngine
import XCTest

/// The glitch settings in the storefront's device settings, which attached apps follow (DECISIONS §46).
final class GlitchDeviceSettingsTests: XCTestCase {
  /// The settings travel to attached apps in the storefront's device settings, and decode from
  /// entries written before glitches existed.
  func testGlitchesTravelInDeviceSettings() throws {
    var controls = SandboxControls()
    controls.glitches[.daemonDrop] = .oneIn(4, seed: 9)
    let settings = DeviceSettings(controls)
    XCTAssertEqual(
      settings.changes(since: DeviceSettings(SandboxControls()), in: SandboxControls()), [.glitch(.daemonDrop, .oneIn(4, seed: 9))])
    XCTAssertEqual(DeviceSettings(SandboxControls()).changes(since: settings, in: controls), [.glitch(.daemonDrop, .off)])
    let data = try JSONEncoder().encode(settings)
    XCTAssertEqual(try JSONDecoder().decode(DeviceSettings.self, from: data).glitches, ["daemon-drop": .oneIn(4, seed: 9)])
    let old = try JSONEncoder().encode(DeviceSettings(SandboxControls()))
    XCTAssertFalse(String(decoding: old, as: UTF8.self).contains("glitches"))
    XCTAssertEqual(try JSONDecoder().decode(DeviceSettings.self, from: old).glitches, [:])
    XCTAssertEqual(GlitchSetting(parsing: "1-in 4 seed 9"), .oneIn(4, seed: 9))
    XCTAssertEqual(GlitchSetting(parsing: "next 3"), .next(3))
    XCTAssertNil(GlitchSetting(parsing: "next 0"))
  }
}
