extension AppReducer {
  /// A request the in-process server answered: listed at the top of the Server pane.
  ///
  /// A selection below the newest row stays on its request as rows are added above it; at the
  /// top it follows the newest, as the Log pane follows its tail.
  static func serverRequest(_ request: ServerRequest, _ state: inout AppState) {
    guard var server = state.server else { return }
    server.record(request)
    state.server = server
    guard !server.showsNotifications else { return }
    var scroll = state.scroll(of: .server)
    if scroll.selection > 0 || scroll.firstRow > 0 {
      scroll.selection += 1
      scroll.firstRow += 1
      state.scroll[.server] = scroll
    }
    select(state.scroll(of: .server).selection, in: .server, &state)
  }

  /// Opens the selected request in a reader sheet.
  static func openRequest(_ state: inout AppState) {
    if state.server?.showsNotifications == true { return openNotification(&state) }
    guard let request = state.selectedRequest else {
      state.notice = Notice("No request yet: point a backend at \(state.server?.url ?? "the server") with a key from `storefront keys create`.", kind: .error)
      return
    }
    state.sheet = .request(
      RequestSheet(number: request.number, title: RequestDetailText.title(request), lines: RequestDetailText.lines(request)))
  }
}
