import Foundation
import StoreEngine

/// The Server pane: every request the in-process App Store Server API answered, newest first.
enum ServerView {
  static let layout = TableLayout(columns: [
    TableColumn("Time", width: .fixed(12)),
    TableColumn("Method", width: .fit(min: 4, max: 7)),
    TableColumn("Path", width: .flexible(min: 12)),
    TableColumn("Status", width: .fixed(6), alignment: .right),
    TableColumn("Latency", width: .fit(min: 7, max: 11), alignment: .right),
    TableColumn("Key", width: .fit(min: 3, max: 10)),
  ])

  static func cells(_ request: ServerRequest) -> [String] {
    [
      time(request.date), request.method, request.path + (request.query.isEmpty ? "" : "?" + request.query),
      String(request.status), request.latencyText, request.keyID ?? "-",
    ]
  }

  /// `14:03:32.417`, UTC wall time (requests happen in real time, not on the virtual clock).
  static func time(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    let inDay = ((milliseconds % 86_400_000) + 86_400_000) % 86_400_000
    let hours = inDay / 3_600_000
    let minutes = inDay / 60_000 % 60
    let seconds = inDay / 1000 % 60
    let millis = inDay % 1000
    return String(format: "%02lld:%02lld:%02lld.%03lld", hours, minutes, seconds, millis)
  }

  static func statusStyle(_ status: Int) -> Style {
    switch status {
    case 200..<300: Style(color: .success)
    case 500...: Style(color: .error)
    default: Style(color: .warning)
    }
  }

  static let notificationLayout = TableLayout(columns: [
    TableColumn("#", width: .fit(min: 1, max: 7), alignment: .right),
    TableColumn("Date", width: .fixed(16)),
    TableColumn("Type", width: .flexible(min: 8)),
    TableColumn("Subtype", width: .fit(min: 7, max: 20)),
    TableColumn("Transaction", width: .fit(min: 11, max: 20)),
    TableColumn("State", width: .fit(min: 5, max: 9)),
    TableColumn("Attempts", width: .fit(min: 8, max: 40)),
  ])

  /// One notification: the attempts as their status codes or results, oldest first.
  static func cells(_ entry: OutboxEntry) -> [String] {
    let notification = entry.notification
    let attempts = entry.attempts.map { $0.httpStatus.map(String.init) ?? $0.result.rawValue }
    return [
      String(entry.sequence), DateText.short(notification.date), notification.notificationType.rawValue,
      notification.subtype?.rawValue ?? "-", notification.transactionID?.description ?? "-", NotificationDetailText.state(entry),
      attempts.isEmpty ? "-" : "\(attempts.count): " + attempts.joined(separator: ", "),
    ]
  }

  static func stateStyle(_ state: OutboxEntry.State) -> Style {
    switch state {
    case .delivered: Style(color: .success)
    case .failed: Style(color: .error)
    case .pending: Style(color: .warning)
    }
  }

  static func draw(_ state: AppState, layout appLayout: AppLayout, in canvas: inout Canvas) {
    guard let server = state.server else { return }
    if server.showsNotifications { return drawNotifications(server, state, layout: appLayout, in: &canvas) }
    let requests = server.requests
    var summary = " \(server.url) · requests: \(server.received), newest first"
    if server.dropped > 0 { summary += " (\(server.dropped) older dropped)" }
    canvas.text(summary, x: 0, y: 0, style: .muted)
    let viewport = ScrollViewport(firstRow: state.scroll(of: .server).firstRow, visibleRows: appLayout.visibleRows(.server))
    let range = viewport.visibleRange(count: requests.count)
    let rows = range.map { cells(requests[$0]) }
    let widths = layout.columnWidths(totalWidth: canvas.size.width, rows: rows)
    layout.drawHeader(in: &canvas, y: 1, widths: widths, style: Style([.bold, .underline]))
    if requests.isEmpty {
      canvas.text(
        "No requests yet: point a backend at \(server.url) with a key from `storefront keys create`.", x: 1, y: 2, style: .muted)
    }
    let selection = state.scroll(of: .server).selection
    for (offset, index) in range.enumerated() {
      let row = TableRow(
        rows[offset], style: index == selection ? .reverse : .plain,
        cellStyles: [.muted, nil, nil, statusStyle(requests[index].status), nil, nil])
      layout.drawRow(row, in: &canvas, y: 2 + offset, widths: widths)
    }
  }

  private static func drawNotifications(_ server: ServerLog, _ state: AppState, layout appLayout: AppLayout, in canvas: inout Canvas) {
    let entries = server.notifications
    let delivered = entries.filter { $0.state == .delivered }.count
    canvas.text(" Notifications to the app's server: \(entries.count), \(delivered) delivered, newest first · n: requests", x: 0, y: 0, style: .muted)
    let viewport = ScrollViewport(firstRow: state.scroll(of: .server).firstRow, visibleRows: appLayout.visibleRows(.server))
    let range = viewport.visibleRange(count: entries.count)
    let rows = range.map { cells(entries[$0]) }
    let widths = notificationLayout.columnWidths(totalWidth: canvas.size.width, rows: rows)
    notificationLayout.drawHeader(in: &canvas, y: 1, widths: widths, style: Style([.bold, .underline]))
    if entries.isEmpty {
      canvas.text("No notifications yet: set the notification URL in Settings; each store event then queues one.", x: 1, y: 2, style: .muted)
    }
    let selection = state.scroll(of: .server).selection
    for (offset, index) in range.enumerated() {
      let row = TableRow(
        rows[offset], style: index == selection ? .reverse : .plain,
        cellStyles: [.muted, .muted, nil, nil, nil, stateStyle(entries[index].state), nil])
      notificationLayout.drawRow(row, in: &canvas, y: 2 + offset, widths: widths)
    }
  }
}
