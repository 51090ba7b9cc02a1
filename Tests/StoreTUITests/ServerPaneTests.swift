import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The Server pane (`--serve`): requests newest first, each opened to its token and response.
@Suite struct ServerPaneTests {
  static let url = "http://127.0.0.1:41234"
  /// 2026-12-01 14:03:32.417 UTC.
  static let arrival = Date(timeIntervalSince1970: 1_796_133_812.4175)

  static let token = ServerRequest.Token(
    algorithm: "ES256", keyID: "ABCDE12345", type: "JWT", issuer: "2f6c1a3e-1111-4222-8333-944455556666",
    audience: ["appstoreconnect-v1"], bundleID: "com.example.storefront", issuedAt: 1_796_133_800, expires: 1_796_134_100)

  static func transactionInfo(id: String) -> ServerRequest {
    let body = #"{"signedTransactionInfo":"\#(sampleJWS(transactionID: id))"}"#
    return ServerRequest(
      date: arrival, method: "GET", path: "/inApps/v1/transactions/\(id)", status: 200, latencyNanoseconds: 420_000,
      keyID: "ABCDE12345", token: token, contentType: "application/json", body: Data(body.utf8))
  }

  static let refused = ServerRequest(
    date: arrival.addingTimeInterval(1), method: "GET", path: "/inApps/v1/transactions/1", status: 401,
    latencyNanoseconds: 90_000, keyID: nil, rejection: "no Authorization header", contentType: "text/plain",
    body: Data("Unauthenticated\n\nRequest ID: ABC.0.0\n".utf8))

  func serving(size: Size = standardSize) -> AppState {
    var state = makeState(size: size)
    send(&state, .serverListening(url: Self.url))
    return state
  }

  @Test func withoutServeThereIsNoServerPane() {
    var state = makeState()
    #expect(state.panes == Pane.standard)
    #expect(!render(state).plainText.contains("Server"))
    send(&state, .key(.char("5")))
    #expect(state.focus == .store)
    #expect(state.notice?.text.contains("--serve") == true)
    send(&state, .key(.backTab))
    #expect(state.focus == .catalog, "Shift-Tab wraps to the last standard pane")
  }

  @Test func servingAddsTheTabAndTheURLInTheHeader() {
    var state = serving()
    let screen = render(state).plainText
    #expect(screen.contains("5 Server"))
    #expect(screen.split(separator: "\n").first?.contains("Server \(Self.url)") == true)
    send(&state, .key(.char("4")), .key(.tab))
    #expect(state.focus == .server)
    send(&state, .key(.tab))
    #expect(state.focus == .catalog)
    send(&state, .key(.tab))
    #expect(state.focus == .store)
    send(&state, .key(.char("5")))
    #expect(render(state).plainText.contains("No requests yet: point a backend at \(Self.url)"))
  }

  @Test func requestsAreListedNewestFirstWithStatusLatencyAndKey() throws {
    var state = serving(size: Size(width: 120, height: 24))
    send(&state, .key(.char("5")), .serverRequest(Self.transactionInfo(id: "2000000000000001")), .serverRequest(Self.refused))
    let lines = render(state).plainText.split(separator: "\n").map(String.init)
    let first = try #require(lines.firstIndex { $0.contains("/inApps/v1/transactions/1 ") })
    let second = try #require(lines.firstIndex { $0.contains("/inApps/v1/transactions/2000000000000001") })
    #expect(first < second, "newest first:\n\(lines.joined(separator: "\n"))")
    let ok = lines[second]
    #expect(ok.contains("14:03:32.417") && ok.contains("GET") && ok.contains("200") && ok.contains("0.42 ms") && ok.contains("ABCDE12345"))
    let unauthorized = lines[first]
    #expect(unauthorized.contains("401") && unauthorized.hasSuffix("-"))
    #expect(state.server?.requests.map(\.number) == [2, 1])
  }

  @Test func theSelectionStaysOnItsRequestAsNewerOnesArrive() {
    var state = serving()
    send(&state, .key(.char("5")))
    for id in 1...3 { send(&state, .serverRequest(Self.transactionInfo(id: "\(id)"))) }
    #expect(state.selectedRequest?.number == 3, "at the top the selection follows the newest")
    send(&state, .key(.down))
    #expect(state.selectedRequest?.number == 2)
    send(&state, .serverRequest(Self.refused))
    #expect(state.selectedRequest?.number == 2)
    send(&state, .key(.home))
    send(&state, .serverRequest(Self.refused))
    #expect(state.selectedRequest?.number == 5)
  }

  @Test func theLogKeepsTheLast500Requests() {
    var state = serving()
    for _ in 0..<(ServerLog.capacity + 7) { send(&state, .serverRequest(Self.refused)) }
    #expect(state.server?.requests.count == ServerLog.capacity)
    #expect(state.server?.dropped == 7)
    #expect(state.server?.requests.first?.number == ServerLog.capacity + 7)
    send(&state, .key(.char("5")))
    #expect(render(state).plainText.contains("(7 older dropped)"))
  }

  @Test func bodiesAreCutAt64KiB() {
    let big = ServerRequest(
      date: Self.arrival, method: "GET", path: "/x", status: 200, latencyNanoseconds: 1, keyID: "K",
      contentType: "application/json", body: Data(repeating: UInt8(ascii: "a"), count: ServerRequest.bodyLimit + 10))
    #expect(big.body.count == ServerRequest.bodyLimit)
    #expect(big.bodySize == ServerRequest.bodyLimit + 10)
    var state = serving(size: Size(width: 100, height: 40))
    send(&state, .key(.char("5")), .serverRequest(big), .key(.enter))
    guard case .request(let sheet) = state.sheet else {
      Issue.record("Enter did not open the request")
      return
    }
    #expect(sheet.lines.contains("  (only the first \(ServerRequest.bodyLimit) bytes are kept)"))
  }

  @Test func enterOpensTheClaimsAndTheDecodedSignedTransactionNeverTheToken() {
    var state = serving(size: Size(width: 100, height: 60))
    let request = Self.transactionInfo(id: "2000000000000001")
    send(&state, .key(.char("5")), .serverRequest(request), .key(.enter))
    guard case .request(let sheet) = state.sheet else {
      Issue.record("Enter did not open the request")
      return
    }
    #expect(sheet.title == "GET /inApps/v1/transactions/2000000000000001 → 200")
    for expected in [
      "Token accepted: key ABCDE12345", "  alg  ES256", "  kid  ABCDE12345", "  iss  2f6c1a3e-1111-4222-8333-944455556666",
      "  aud  appstoreconnect-v1", "  bid  com.example.storefront", "  (the signature is not shown)",
      "Decoded signedTransactionInfo",
    ] {
      #expect(sheet.lines.contains(expected), "missing '\(expected)' in:\n\(sheet.lines.joined(separator: "\n"))")
    }
    #expect(sheet.lines.contains { $0.hasPrefix("  exp  1796134100  (2026-12-01 14:08:20 UTC)") })
    #expect(sheet.lines.contains { $0.contains(#""transactionId" : "2000000000000001""#) })
    let screen = render(state).plainText
    #expect(screen.contains("Decoded signedTransactionInfo"))
    #expect(!screen.contains("c2lnbmF0dXJlLWJ5dGVz"), "the signature's base64 is shown outside the signed field")
    send(&state, .key(.escape))
    #expect(state.sheet == nil)
    send(&state, .key(.char("v")), .key(.char("v")))
    #expect(state.sheet == nil, "v opens and closes the request")
  }

  @Test func aRefusedRequestSaysWhy() {
    var state = serving(size: Size(width: 100, height: 40))
    send(&state, .key(.char("5")), .serverRequest(Self.refused), .key(.enter))
    guard case .request(let sheet) = state.sheet else {
      Issue.record("Enter did not open the request")
      return
    }
    #expect(sheet.lines.contains("Token refused: no Authorization header (the client got Apple's 401)"))
    #expect(sheet.lines.contains("  Unauthenticated"))
  }

  @Test func enterWithNoRequestSaysWhereToPointABackend() {
    var state = serving()
    send(&state, .key(.char("5")), .key(.enter))
    #expect(state.sheet == nil)
    #expect(state.notice?.text.contains(Self.url) == true)
  }

  @Test func theServerTabAndItsRowsAnswerClicks() throws {
    var state = serving()
    send(&state, .serverRequest(Self.refused), .serverRequest(Self.refused))
    let layout = AppLayout(size: state.size, panes: state.panes)
    let tab = try #require(layout.tabRects.first { $0.pane == .server })
    send(&state, .key(.mouse(MouseEvent(x: tab.rect.x, y: tab.rect.y, kind: .click))))
    #expect(state.focus == .server)
    let rows = layout.listRect(.server)
    send(&state, .key(.mouse(MouseEvent(x: rows.x + 2, y: rows.y + 1, kind: .click))))
    #expect(state.selectedRequest?.number == 1)
    #expect(AppLayout(size: state.size).tabRects.allSatisfy { $0.pane != .server }, "no Server tab without --serve")
  }

  @Test func serverPaneSnapshot() {
    var state = serving()
    send(&state, .key(.char("5")), .serverRequest(Self.transactionInfo(id: "2000000000000001")), .serverRequest(Self.refused))
    assertAppSnapshot(render(state), named: "server")
  }

  @Test func requestSheetSnapshot() {
    var state = serving()
    send(&state, .key(.char("5")), .serverRequest(Self.transactionInfo(id: "2000000000000001")), .key(.enter))
    assertAppSnapshot(render(state), named: "sheet-request")
  }
}
