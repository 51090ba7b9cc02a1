import StoreEngine

extension AppReducer {
  /// Entries read from the outbox: new ones at the top. A selection below the top stays on its
  /// notification, as the request list's does.
  static func notificationsRead(_ entries: [OutboxEntry], _ state: inout AppState) {
    guard var server = state.server else { return }
    let added = server.merge(entries)
    state.server = server
    guard server.showsNotifications else { return }
    var scroll = state.scroll(of: .server)
    if added > 0, scroll.selection > 0 || scroll.firstRow > 0 {
      scroll.selection += added
      scroll.firstRow += added
      state.scroll[.server] = scroll
    }
    select(state.scroll(of: .server).selection, in: .server, &state)
  }

  /// `n`: the requests or the notifications, from the newest.
  static func toggleNotifications(_ state: inout AppState) {
    guard var server = state.server else { return }
    server.showsNotifications.toggle()
    state.server = server
    state.scroll[.server] = nil
    select(0, in: .server, &state)
    state.notice = Notice(server.showsNotifications ? "Server: the notifications sent to the app's server." : "Server: the API requests.")
  }

  /// Opens the selected notification in a reader sheet.
  static func openNotification(_ state: inout AppState) {
    guard let entry = state.selectedNotification else {
      state.notice = Notice("No notification yet: set a notification URL in Settings, then buy something.", kind: .error)
      return
    }
    state.sheet = .request(
      RequestSheet(number: Int(entry.sequence), title: NotificationDetailText.title(entry), lines: NotificationDetailText.lines(entry)))
  }

  /// `D`: the selected notification is due again now.
  static func redeliver(_ state: inout AppState) -> [AppCommand] {
    guard let entry = state.selectedNotification else {
      state.notice = Notice("Press n to list the notifications, then select one to deliver again.", kind: .error)
      return []
    }
    return [.redeliver(entry.sequence)]
  }
}
