import Foundation
import StoreEngine
import StoreKit
import StoreKitTest
import XCTest

/// `AppStore.ageRatingCode` (iOS 26.2) answers the sandbox's age rating code, which a storefront's
/// Settings pane or a scenario's `set age-rating` changes; an attached app follows its storefront's.
final class AgeRatingTests: StoreKitTestCase {
  func testAgeRatingCodeFollowsTheSandboxSetting() async throws {
    let first = await AppStore.ageRatingCode
    XCTAssertEqual(first, 100, "4+ until a tester changes it")
    try StoreKitEnvironment.shared.perform(.setControl(.ageRatingCode(300)))
    let changed = await AppStore.ageRatingCode
    XCTAssertEqual(changed, 300, "12+: an app comparing with the last code it saw finds a change")
    try StoreKitEnvironment.shared.perform(.setControl(.ageRatingCode(nil)))
    let unavailable = await AppStore.ageRatingCode
    XCTAssertNil(unavailable)
  }

  func testAnAttachedAppFollowsTheStorefrontsAgeRating() throws {
    var controls = SandboxControls()
    controls.ageRatingCode = 618
    let settings = DeviceSettings(controls)
    XCTAssertEqual(settings.changes(since: DeviceSettings(SandboxControls()), in: SandboxControls()), [.ageRatingCode(618)])
    // Written and read back as the ledger's device values carry them; nil stays nil.
    controls.ageRatingCode = nil
    for code in [618, nil] as [Int?] {
      var written = SandboxControls()
      written.ageRatingCode = code
      let data = try JSONEncoder().encode(DeviceSettings(written))
      XCTAssertEqual(try JSONDecoder().decode(DeviceSettings.self, from: data).ageRatingCode, code)
    }
    // A storefront from before the setting existed: its apps saw the default.
    let old = Data(#"{"askToBuy":false,"interruptedPurchases":false,"canMakePayments":true,"billingRetry":false,"gracePeriod":false,"storefront":"USA","locale":"en_US","failures":{}}"#.utf8)
    XCTAssertEqual(try JSONDecoder().decode(DeviceSettings.self, from: old).ageRatingCode, 100)
  }
}
