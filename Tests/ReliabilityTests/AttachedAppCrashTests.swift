import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

/// SIGKILLs an attached app (`storekit-attached-app`, Apple's StoreKit 1 API over the `StoreKit`
/// library, issue 25) at many points of its purchases and checks after each kill that nothing was
/// lost or charged twice and that its next launch is handed every unfinished transaction again.
///
/// Half the data directories have the app answer its own sheets (`STOREFRONT_DIALOGS=off`); in the
/// other half this test is the storefront: it registers as one and writes a confirm for every sheet
/// that waits, as the TUI does on Enter, so kills also land between the answer and its carrying out.
/// Each kill lands right after the k-th line the app wrote (k seeded); no sleeping. What the app
/// said before it died, also past that line, is read from its journal file.
/// `STOREFRONT_CRASH_SEED=N` picks another seed.
final class AttachedAppCrashTests: XCTestCase {
  static let coins = "com.jake.sample.ExInAppPurchase.coins100"

  struct Figures {
    var kills = 0
    var runs = 0
    var redeliveries = 0
    var answered = 0
  }

  func testSIGKILLOfAnAttachedAppLosesAndDuplicatesNothing() throws {
    let seed = ProcessInfo.processInfo.environment["STOREFRONT_CRASH_SEED"].flatMap(UInt64.init) ?? 20_261_203
    var random = SeededGenerator(seed: seed)
    let storefront = try StorefrontBinary.locate()
    let catalog = StorefrontBinary.packageRoot.appendingPathComponent("Catalog/Default.storekit").path
    var figures = Figures()
    let rounds = 6
    let killsPerRound = 10
    for round in 0..<rounds {
      let dataDir = try Scratch.directory(self, "attached-crash", inMemory: true)
      let answerer = round % 2 == 1 ? try SheetAnswerer(directory: dataDir) : nil
      defer { answerer?.stop() }
      let journal = dataDir.appendingPathComponent("app-journal")
      var journalRead = 0
      let app = StorefrontBinary(
        executable: storefront.deletingLastPathComponent().appendingPathComponent("storekit-attached-app"),
        environment: ProcessInfo.processInfo.environment.merging([
          "STOREFRONT_DATA_DIR": dataDir.path, "STOREFRONT_BUNDLE_ID": "com.example.crash", "STOREKIT_CONFIGURATION": catalog,
          "STOREFRONT_DIALOGS": answerer == nil ? "off" : "on", "ATTACHED_APP_JOURNAL": journal.path, "STOREFRONT_SHEET_TIMEOUT": "30", "SWIFT_BACKTRACE": "enable=no",
        ]) { $1 },
        timeout: 60)
      var adds = 0
      var purchased: Set<String> = []
      var kills = 0
      var run = 0
      while kills < killsPerRound && run < killsPerRound * 3 {
        run += 1
        let context = "seed \(seed) round \(round) run \(run)"
        let before = try LedgerView.read(dataDir)
        let unfinished = Set(before.transactions.filter { !$0.finished && $0.state == "purchased" }.map(\.id))
        let waiting = Set(before.transactions.filter { !$0.finished && $0.state == "purchasing" }.map(\.id))
        let killLine = Int.random(in: 1...10, using: &random)
        var read: [String] = []
        let result = try app.stream([Self.coins, "3"]) { line, _ in
          read.append(line)
          return read.count >= killLine
        }
        figures.runs += 1
        if result.signalled { kills += 1 }
        XCTAssertTrue(result.signalled || result.status == 0, "\(context): exit \(result.status): \(result.stderr)")
        // All the run said, also after the line the kill followed (the journal is appended to before stdout).
        let journalText = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
        let said = journalText.utf8.count > journalRead ? String(decoding: Array(journalText.utf8)[journalRead...], as: UTF8.self) : ""
        journalRead = journalText.utf8.count
        let lines = said.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.starts(with: read), "\(context): stdout \(read) is not how the journal \(lines) starts")
        adds += lines.filter { $0.hasPrefix("adding ") }.count

        // The launch: what the last run left comes first, before the products answer.
        let launch = lines.prefix { !$0.hasPrefix("products") }.compactMap(Update.init)
        let reachedProducts = lines.contains { $0.hasPrefix("products") }
        for update in launch {
          XCTAssertTrue(
            unfinished.contains(update.id) || waiting.contains(update.id),
            "\(context): the launch delivered \(update.id), which was not unfinished: \(lines)")
        }
        if reachedProducts {
          let redelivered = Set(launch.map(\.id))
          XCTAssertTrue(unfinished.isSubset(of: redelivered), "\(context): unfinished \(unfinished) not all delivered again: \(lines)")
          XCTAssertTrue(waiting.isSubset(of: redelivered), "\(context): waiting \(waiting) not delivered again: \(lines)")
          figures.redeliveries += redelivered.count
        }

        let after = try LedgerView.read(dataDir)
        XCTAssertEqual(try LedgerView.integrity(dataDir), "ok", context)
        for update in lines.compactMap(Update.init) where update.state == "purchased" {
          purchased.insert(update.id)
          XCTAssertEqual(after.byID[update.id]?.state, "purchased", "\(context): \(update.id) was reported purchased")
        }
        // One transaction per payment added: a payment is never charged twice, and a kill loses at
        // most the payment it interrupted before its first commit.
        let rows = after.transactions.filter { $0.productID == Self.coins }
        XCTAssertLessThanOrEqual(rows.count, adds, "\(context): more transactions than payments: \(rows.map(\.id))")
        XCTAssertGreaterThanOrEqual(rows.count, adds - kills, "\(context): a payment's transaction is missing")
        XCTAssertTrue(
          rows.allSatisfy { $0.state == "purchased" || $0.state == "purchasing" || $0.state == "failed" },
          "\(context): \(rows.map { "\($0.id) \($0.state)" })")
      }
      XCTAssertGreaterThanOrEqual(kills, killsPerRound / 2, "round \(round): too few runs were killed")
      figures.kills += kills
      figures.answered += answerer?.answered ?? 0

      // A last run to its end: nothing of this app is left unfinished, and nothing reported purchased went.
      let last = try app.stream([Self.coins, "1"]) { _, _ in false }
      XCTAssertEqual(last.status, 0, "round \(round): the last run failed: \(last.stderr)")
      let end = try LedgerView.read(dataDir)
      XCTAssertEqual(end.transactions.filter { !$0.finished && $0.state != "failed" }.map(\.id), [], "round \(round)")
      XCTAssertTrue(purchased.isSubset(of: Set(end.transactions.filter { $0.state == "purchased" }.map(\.id))), "round \(round)")
    }
    XCTAssertGreaterThanOrEqual(figures.kills, 50)
    XCTAssertGreaterThan(figures.answered, 0, "the storefront rounds answered no sheet")
    XCTAssertGreaterThan(figures.redeliveries, 0, "no launch had anything to deliver again")
    FileHandle.standardError.write(Data((
      "Attached app crash safety (seed \(seed)): \(figures.kills) kill points in \(figures.runs) runs, "
        + "\(figures.redeliveries) redeliveries checked, \(figures.answered) sheets answered by the test's storefront\n").utf8))
  }

  /// One `updated <product> <state…> <id>` line of the app; nil for others and for lines without an id.
  struct Update {
    var state: String
    var id: String

    init?(_ line: String) {
      let words = line.split(separator: " ")
      guard words.count >= 4, words[0] == "updated", let last = words.last, last != "-" else { return nil }
      state = String(words[2])
      id = String(last)
    }
  }
}

/// A storefront as far as an attached app can tell: registered on the data directory with sheets on,
/// it writes a confirm for every purchase that waits for one (a thread looking every 2 ms, bounded
/// by ``stop()``).
final class SheetAnswerer: @unchecked Sendable {
  private let stopped = NSLock()
  private var isStopped = false
  private let finished = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var count = 0

  /// How many sheets it answered.
  var answered: Int { lock.withLock { count } }

  init(directory: URL) throws {
    let ledger = try SQLiteLedgerStore(directory: directory)
    // The test runner's own session: alive as long as the test.
    let entry = AttachedProcess(
      session: ProcessSession().current().id, role: .storefront, bundleID: "com.example.storefront", since: Date(), showsSheets: true)
    try ledger.commit([DeviceValues.register(entry)])
    ledger.close()
    let thread = Thread { [self] in
      defer { finished.signal() }
      guard let store = try? SQLiteLedgerStore(directory: directory) else { return }
      defer { store.close() }
      while !stopped.withLock({ isStopped }) {
        if let snapshot = try? store.load() {
          let answers = DeviceValues.answers(in: snapshot.deviceValues)
          for transaction in snapshot.transactions where transaction.state == .purchasing && !transaction.isFinished && answers[transaction.id] == nil {
            if (try? store.commit([DeviceValues.answer(transaction.id, .confirm)])) != nil { lock.withLock { count += 1 } }
          }
        }
        usleep(2_000)
      }
    }
    thread.start()
  }

  func stop() {
    stopped.withLock { isStopped = true }
    finished.wait()
  }
}
