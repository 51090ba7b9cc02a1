import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The Settings rows for the app's server: the notification URL and the server fault of all endpoints.
@MainActor
@Suite struct NotificationSettingsTests {
  @Test func theNotificationURLIsEditedInAFormAndClearedByEmptyingIt() throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    try selectSettingsRow(.notificationURL, runtime)
    #expect(SettingsItem.notificationURL.value(in: runtime.state) == "off (Enter to set)")
    press(runtime, .enter)
    guard case .notificationURL = runtime.state.sheet else { Issue.record("no URL sheet"); return }
    #expect(runtime.render().plainText.contains("App Store Server Notifications"))
    for action in typing("ftp://x") { runtime.send(action) }
    press(runtime, .enter)
    #expect(runtime.state.notice?.kind == .error, "not an http URL: the sheet stays")
    for _ in 0..<7 { press(runtime, .backspace) }
    for action in typing("http://127.0.0.1:9/hook") { runtime.send(action) }
    press(runtime, .enter)
    #expect(runtime.state.sheet == nil)
    #expect(try store.ledger.load().notificationURLs == ["Sandbox": "http://127.0.0.1:9/hook"])
    #expect(runtime.state.notice?.text == "Notifications for Sandbox go to http://127.0.0.1:9/hook.")
    #expect(SettingsItem.notificationURL.value(in: runtime.state) == "http://127.0.0.1:9/hook")
    // Now a purchase queues its notification.
    _ = try store.buy(FixtureCatalog.coins)
    #expect(store.ledger.outbox.map(\.notificationType) == [.oneTimeCharge])

    press(runtime, .enter)
    for _ in 0..<40 { press(runtime, .backspace) }
    press(runtime, .enter)
    #expect(try store.ledger.load().notificationURLs == [:])
    #expect(runtime.state.notificationURL == nil)
    #expect(runtime.state.notice?.text == "Notifications for Sandbox are off.")
  }

  @Test func aURLSetByAnotherProcessShowsAtTheNextTick() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notification-url-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let ledger = try SharedLedger(directory: directory)
    let store = try ledger.store(session: "tui")
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    let other = try ledger.store(session: "other")
    try other.queue.perform(.setNotificationURL(environment: "Sandbox", url: "https://example.com/n"))
    // The commit log carries the other process's setting; the header takes it from the commit.
    runtime.tick(now: TestStore.start)
    #expect(runtime.state.notificationURL == "https://example.com/n")
    try other.queue.perform(.setNotificationURL(environment: "Sandbox", url: nil))
    runtime.tick(now: TestStore.start)
    #expect(runtime.state.notificationURL == nil)
  }

  @Test func theServerFaultCyclesThroughTheAccessItWasGiven() throws {
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    #expect(SettingsItem.serverFault.value(in: runtime.state) == "— (needs a data directory)")
    let written = Locked<[ServerFaultSetting]>([])
    runtime.serverFaults = ServerFaultAccess(
      read: { written.withLock { $0.last ?? ServerFaultSetting() } },
      write: { setting in
        written.withLock { $0.append(setting) }
        return setting.delayMilliseconds == 5_000 ? "disk full" : nil
      })
    #expect(runtime.state.serverFault == ServerFaultSetting())
    try selectSettingsRow(.serverFault, runtime)
    press(runtime, .right, .right)
    #expect(SettingsItem.serverFault.value(in: runtime.state) == "500")
    press(runtime, .left)
    #expect(runtime.state.notice?.text == "Server fault for all endpoints: 429, delay 0 ms.")
    press(runtime, .down, .right, .right)
    #expect(SettingsItem.serverDelay.value(in: runtime.state) == "1000 ms")
    press(runtime, .right)
    #expect(runtime.state.notice?.kind == .error)
    #expect(runtime.state.notice?.text == "disk full")
    #expect(written.withLock { $0.map(\.answer) } == [.rateLimit, .internalError, .rateLimit, .rateLimit, .rateLimit, .rateLimit])
    #expect(written.withLock { $0.map(\.delayMilliseconds) } == [0, 0, 0, 250, 1_000, 5_000])
  }
}
