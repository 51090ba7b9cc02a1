import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The header says when the shared ledger is away, over the purchase spinner, and stops once it is back.
@Suite struct LedgerConnectionHeaderTests {
  private func infoLine(_ state: AppState) -> String {
    let lines = render(state).plainText.split(separator: "\n", omittingEmptySubsequences: false)
    return lines.count > 1 ? String(lines[1]) : ""
  }

  @Test func theHeaderShowsTheReconnectAttemptAndClearsWhenConnected() {
    var state = makeState()
    #expect(!infoLine(state).contains("ledger:"))
    send(&state, .ledgerConnectionChanged(.reconnecting(attempt: 3, nextIn: .milliseconds(400), lastError: "server closed the connection")))
    #expect(state.ledgerConnection == .reconnecting(attempt: 3, nextIn: .milliseconds(400), lastError: "server closed the connection"))
    #expect(infoLine(state).contains("ledger: reconnecting (attempt 3)…"))
    #expect(infoLine(state).contains("Clock "), "the clock stays")
    send(&state, .ledgerConnectionChanged(.connected))
    #expect(!infoLine(state).contains("ledger:"))
  }

  @Test func whileReconnectingThePurchaseSpinnerGivesWay() {
    var state = makeState()
    send(&state, .key(.enter))
    send(&state, .ledgerConnectionChanged(.reconnecting(attempt: 1, nextIn: .milliseconds(100), lastError: "x")))
    #expect(infoLine(state).contains("ledger: reconnecting (attempt 1)…"))
    #expect(!infoLine(state).contains("Purchasing"))
    send(&state, .ledgerConnectionChanged(.gaveUp(attempts: 9, lastError: "x")))
    #expect(infoLine(state).contains("ledger: unreachable (9 attempts)"))
  }
}
