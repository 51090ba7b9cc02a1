import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// B63: the TUI words the engine's refusal of an unknown storefront, naming where to pick one.
@Suite struct StorefrontErrorTextTests {
  @Test func b63UnknownStorefrontNoticeNamesNearMatchesAndTheSetting() {
    var state = makeState()
    send(&state, .engine(.misuse(.unknownStorefront("USB", nearMatches: ["USA", "UZB"]))))
    #expect(state.notice == Notice("'USB' is not an App Store storefront. Did you mean 'USA' (United States) or 'UZB' (Uzbekistan)? Pick one in Settings (3) → Storefront.", kind: .error))
  }
}
