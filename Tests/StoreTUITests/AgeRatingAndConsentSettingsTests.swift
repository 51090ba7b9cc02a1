import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The Settings rows of age assurance: the age rating code `AppStore.ageRatingCode` answers, and a
/// parent's consent withdrawn (RESCIND_CONSENT for the app's server).
@MainActor
@Suite struct AgeRatingAndConsentSettingsTests {
  @Test func theAgeRatingRowCyclesApplesCodesAndUnavailable() throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    try selectSettingsRow(.ageRating, runtime)
    #expect(SettingsItem.ageRating.value(in: runtime.state) == "100 (4+)")
    var seen: [Int?] = []
    for _ in 0..<6 {
      press(runtime, .enter)
      seen.append(store.queue.controls.ageRatingCode)
    }
    #expect(seen == [200, 300, 600, 618, nil, 100])
    press(runtime, .enter, .enter, .enter, .enter, .enter)
    #expect(SettingsItem.ageRating.value(in: runtime.state) == "unavailable (nil)")
  }

  @Test func withdrawingConsentAsksFirstThenQueuesRescindConsent() throws {
    let store = try TestStore()
    try store.queue.perform(.setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/hook"))
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    try selectSettingsRow(.rescindConsent, runtime)
    press(runtime, .enter)
    guard case .confirm = runtime.state.sheet else { Issue.record("no confirmation"); return }
    #expect(store.ledger.outbox.isEmpty, "nothing before the parent confirms")
    press(runtime, .char("y"))
    #expect(store.ledger.outbox.map(\.notificationType) == [.rescindConsent])
    #expect(store.ledger.outbox.first?.signedAppTransactionInfo != nil)
    #expect(runtime.state.notice?.text.contains("RESCIND_CONSENT") == true)
  }
}
