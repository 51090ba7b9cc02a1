import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// An upgrade ends the old plan's period at once (the store refunds it pro rata): the old plan's
/// row no longer says it renews, live or after a launch; the new plan's row does.
@MainActor
@Suite struct UpgradedRowTests {
  @Test func theUpgradedPlansRowNoLongerRenews() throws {
    let store = try TestStore()
    try store.buy(FixtureCatalog.monthly)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    let trial = try #require(store.queue.subscriptions().first).expiresDate
    #expect(runtime.state.status(of: FixtureCatalog.monthly) == .renews(trial))
    try store.buy(FixtureCatalog.yearly)  // the higher level of the group: an upgrade, at once
    let record = try #require(store.queue.subscriptions().first)
    #expect(record.productID == FixtureCatalog.yearly)
    #expect(runtime.state.status(of: FixtureCatalog.yearly) == .renews(record.expiresDate))
    #expect(runtime.state.status(of: FixtureCatalog.monthly) == .none)
    try expectSameAsFreshLaunch(runtime, on: store.ledger, "after the upgrade")
  }
}
