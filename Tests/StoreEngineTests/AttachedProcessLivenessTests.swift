import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Which attached processes a store counts as running: this host's by `/proc`, another host's by the
/// store's session (on a shared ledger, the other process's session lock).
final class AttachedProcessLivenessTests: XCTestCase {
  func testAnotherHostsEntryIsAsLiveAsTheSessionSays() throws {
    let dead = Locked(Set<String>())
    var environment = TestStore.environment
    environment.session = AppSession(id: "us", isAlive: { !dead.withLock { $0 }.contains($0) })
    let queue = try PaymentQueue(catalog: FixtureCatalog.make(), ledger: InMemoryLedgerStore(), environment: environment)
    let elsewhere = AttachedProcess(
      session: "storefront-on-b", role: .storefront, bundleID: "com.example.storefront", pid: 4242, host: "host-b-\(UUID().uuidString)",
      since: Date(timeIntervalSince1970: 1_800_000_000), showsSheets: true)
    // A process of this host that no longer runs: its session does not parse, so it is dead.
    let gone = AttachedProcess(
      session: "not-a-session", role: .app, bundleID: "com.example.app", since: Date(timeIntervalSince1970: 1_800_000_001), showsSheets: false)
    try queue.tell(.register(elsewhere), .register(gone))
    XCTAssertEqual(queue.attachedProcesses.map(\.session), ["storefront-on-b"])
    _ = dead.withLock { $0.insert("storefront-on-b") }
    XCTAssertEqual(queue.attachedProcesses.map(\.session), [], "its session ended: it is gone")
  }
}
