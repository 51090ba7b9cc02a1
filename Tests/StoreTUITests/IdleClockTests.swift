import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// The TUI's clock while it idles (issue 35): its ticks move the screen's clock every second, but
/// the ledger gets it when another process acts (at the next tick), every 30 seconds, or at quit;
/// another process then holds the same clock.
@MainActor
@Suite struct IdleClockTests {
  /// Whole seconds from `start` to `date` (the clock keeps a fraction of a second exactly as the ledger stores it).
  func seconds(_ date: Date, after start: Date) -> Int { Int(date.timeIntervalSince(start).rounded()) }

  @Test func anotherProcessGetsTheScreensClockWhenItActsAndAtQuit() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idleclock-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let shared = try SharedLedger(directory: directory)
    let mine = try shared.store(session: "tui")
    let theirs = try shared.store(session: "other")
    let runtime = try AppRuntime(queue: mine.queue, size: standardSize)
    let wall = Date(timeIntervalSince1970: 5_000)
    let start = mine.queue.now
    for second in 0...5 { runtime.tick(now: wall.addingTimeInterval(Double(second))) }
    #expect(seconds(runtime.state.clock, after: start) == 5)
    try theirs.queue.refresh()
    #expect(theirs.queue.now < start.addingTimeInterval(5), "five seconds are not written")

    // The other process acts: the screen's next tick writes its clock, which the other takes in.
    try theirs.buy(FixtureCatalog.coins)
    runtime.tick(now: wall.addingTimeInterval(6))
    try theirs.queue.refresh()
    #expect(theirs.queue.now == mine.queue.now)
    #expect(seconds(mine.queue.now, after: start) == 6)

    // At quit.
    runtime.tick(now: wall.addingTimeInterval(8))
    runtime.stop()
    try theirs.queue.refresh()
    #expect(seconds(theirs.queue.now, after: start) == 8)
    #expect(try shared.open().load().clock == mine.queue.now)
  }

  @Test func aCatalogFileIsReadWhenItsPaneFirstShows() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lazycatalog-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("Store.storekit").path
    var text = CatalogTextEditor(bytes: try CatalogTextEditor.newCatalog(seed: 1), seed: 1)
    try text.add(.consumable, id: "com.example.coins", edits: [.price("0.99"), .name("100 Coins", locale: nil)])
    try Data(text.bytes).write(to: URL(fileURLWithPath: path))
    let store = try TestStore()
    let runtime = try AppRuntime(queue: store.queue, size: Size(width: 120, height: 32))
    let hash = text.bytes.withUnsafeBytes(AppRuntime.catalogContentHash)
    runtime.openCatalog(path: path, seed: 2, contentHash: hash)
    #expect(runtime.state.catalogEditor.path == path)
    #expect(runtime.state.catalogEditor.bytes.isEmpty, "not read at launch")
    runtime.send(.key(.char("6")))
    #expect(runtime.state.catalogEditor.bytes == text.bytes)
    #expect(!runtime.state.catalogEditor.changedOnDisk)

    // Changed on disk before the pane first showed: the pane says so, as for a later change.
    let other = try AppRuntime(queue: store.queue, size: Size(width: 120, height: 32))
    other.openCatalog(path: path, seed: 2, contentHash: hash)
    try Data(try text.settingPrice("1.99", of: "com.example.coins")).write(to: URL(fileURLWithPath: path))
    other.catalogFileChanged()
    #expect(other.state.catalogEditor.changedOnDisk)
    other.send(.key(.char("6")))
    #expect(other.state.catalogEditor.changedOnDisk)
  }
}
