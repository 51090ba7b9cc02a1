import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The Server pane's notifications (`n`): read from the ledger's outbox on each tick, opened with
/// Enter, redelivered with `D`.
@MainActor
@Suite struct NotificationPaneTests {
  private func serving(_ store: TestStore) throws -> AppRuntime {
    let runtime = try AppRuntime(queue: store.queue, size: Size(width: 120, height: 24))
    runtime.send(.serverListening(url: "http://127.0.0.1:41234"))
    runtime.send(.key(.char("5")))
    return runtime
  }

  private func deliver(_ store: TestStore, _ sequence: Int64, _ result: DeliveryAttempt.Result, status: Int?, state: OutboxEntry.State) throws {
    var entry = try #require(try store.ledger.outbox(after: sequence - 1, limit: 1).first)
    entry.attempts.append(DeliveryAttempt(date: TestStore.start, result: result, httpStatus: status, milliseconds: 4))
    entry.state = state
    entry.nextAttempt = nil
    entry.notificationUUID = "uuid-\(sequence)"
    try store.ledger.recordDelivery(of: entry)
  }

  @Test func theListFollowsTheOutboxAndShowsEachAttempt() throws {
    let store = try TestStore()
    try store.queue.perform(.setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/hook"))
    let runtime = try serving(store)
    runtime.send(.key(.char("n")))
    #expect(runtime.render().plainText.contains("No notifications yet"))
    let bought = try store.buy(FixtureCatalog.coins)
    _ = try store.buy(FixtureCatalog.removeAds)
    runtime.tick(now: TestStore.start)
    #expect(runtime.state.server?.notifications.map(\.sequence) == [2, 1], "newest first")
    var screen = runtime.render().plainText
    #expect(screen.contains("Notifications to the app's server: 2, 0 delivered"))
    #expect(screen.contains("ONE_TIME_CHARGE"))
    #expect(screen.contains(bought.id.description))
    #expect(screen.contains("queued"))

    try deliver(store, 1, .unsuccessfulHTTPResponseCode, status: 500, state: .pending)
    try deliver(store, 1, .success, status: 200, state: .delivered)
    try deliver(store, 2, .timedOut, status: nil, state: .failed)
    runtime.tick(now: TestStore.start.addingTimeInterval(0.5))
    screen = runtime.render().plainText
    #expect(screen.contains("2: 500, 200"))
    #expect(screen.contains("1: TIMED_OUT"))
    #expect(screen.contains("delivered"))
    #expect(screen.contains("failed"))
    #expect(runtime.state.server?.outboxFloor == 2, "nothing pending: the next read starts after the newest")

    // Enter opens the newest (selected): its attempts and what it carries.
    runtime.send(.key(.enter))
    guard case .request(let sheet) = runtime.state.sheet else { Issue.record("no sheet"); return }
    #expect(sheet.title == "#2 ONE_TIME_CHARGE · failed")
    #expect(sheet.lines.contains("  1. 2026-01-01 00:00:00 UTC  TIMED_OUT in 4 ms"))
    #expect(sheet.lines.contains("signedTransactionInfo, decoded:"))
    #expect(sheet.lines.contains { $0.contains("signedPayload: not signed yet") })
    runtime.send(.key(.escape))

    // D: due again now, attempts kept; the list shows it pending again.
    runtime.send(.key(.char("D")))
    #expect(runtime.state.notice?.text == "Notification #2 is due again; the serving process delivers it.")
    let entry = try #require(try store.ledger.allNotifications().last)
    #expect(entry.state == .pending)
    #expect(entry.nextAttempt == store.queue.now)
    #expect(entry.attempts.count == 1)
    #expect(runtime.state.server?.notifications.first?.state == .pending)
    #expect(runtime.render().plainText.contains("retrying"))

    runtime.send(.key(.char("n")))
    #expect(runtime.render().plainText.contains("No requests yet"))
    runtime.send(.key(.char("D")))
    #expect(runtime.state.notice?.text.contains("Press n to list the notifications") == true)
  }

  @Test func aSelectionBelowTheTopStaysOnItsNotification() {
    var state = makeState()
    send(&state, .serverListening(url: "http://127.0.0.1:1"), .key(.char("5")), .key(.char("n")))
    let entries = (1...3).map { OutboxEntry(sequence: $0, notification: ServerNotification(notificationType: .test, date: TestStore.start)) }
    send(&state, .notificationsRead(entries))
    send(&state, .key(.down))
    #expect(state.selectedNotification?.sequence == 2)
    send(&state, .notificationsRead([OutboxEntry(sequence: 4, notification: ServerNotification(notificationType: .refund, date: TestStore.start))]))
    #expect(state.selectedNotification?.sequence == 2)
    var updated = entries[1]
    updated.state = .delivered
    send(&state, .notificationsRead([updated]))
    #expect(state.selectedNotification?.state == .delivered)
    #expect(state.server?.notifications.map(\.sequence) == [4, 3, 2, 1])
    #expect(send(&state, .key(.char("D"))) == [.redeliver(2)])
  }
}
