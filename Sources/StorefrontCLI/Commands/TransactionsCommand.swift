import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontLive
import StoreScenario
import StoreTUI

/// `storefront transactions [--json] [--account NAME]`: the ledger, newest last.
enum TransactionsCommand {
  static let descriptor = CommandDescriptor(
    path: ["transactions"],
    arguments: "[--json] [--account <name>] [--all]",
    summary: "Show the ledger of the current account.",
    discussion: """
      Lists the transactions recorded in the data directory's ledger for --account (default: the \
      account signed in last), oldest first. --all lists every account's. Nothing is changed.
      """,
    options: [
      OptionSpec("--json", help: "Print one JSON object per transaction."),
      OptionSpec("--all", help: "List the transactions of every account."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    if let extra = invocation.operands.first {
      throw invocation.usageError("Unexpected argument '\(extra)': transactions takes no operands.", for: descriptor)
    }
    let location: LedgerLocation
    do throws(LedgerError) {
      location = try LedgerLocation.resolve(invocation.global, environment: invocation.environment)
    } catch {
      throw CLIFailure(error)
    }
    guard location.exists else {
      invocation.io.errorLine("No ledger at '\(location.displayName)' yet: nothing has been bought with this data directory. Run `storefront` or `storefront run SCRIPT` first, or pass --data-dir.")
      return .noInput
    }
    let all = invocation.arguments.flag("--all")
    let json = invocation.arguments.flag("--json")
    let ledger: any OpenLedger
    let snapshot: LedgerSnapshot
    do throws(LedgerError) {
      ledger = try location.open(readOnly: true)
    } catch {
      throw CLIFailure(error)
    }
    defer { ledger.close() }
    do throws(LedgerError) {
      snapshot = try ledger.load()
    } catch {
      throw CLIFailure(error)
    }
    let account = invocation.global.account ?? snapshot.currentAccount
    // Nobody signed in and no --account: an empty listing, as before.
    let history = HistoryWalk(ledger: ledger, account: all ? nil : account, isEmpty: !all && account == nil)
    if json {
      do throws(LedgerError) {
        try listJSON(history, records: snapshot.subscriptions, io: invocation.io)
      } catch {
        throw CLIFailure(error)
      }
    } else {
      let title = all ? "All accounts" : "Account: \(account ?? "none signed in")"
      try listTable(history, title: title, ledgerName: location.displayName, io: invocation.io)
    }
    return .success
  }

  static let header = ["ID", "ORIGINAL", "PRODUCT", "STATE", "QTY", "PURCHASED", "EXPIRES", "FINISHED"]

  /// The table in one walk of ``TransactionSummary``s (the ten fields it shows): each row's cells
  /// go to a ``RowSpill`` while the column widths are measured, then are padded from it, so each
  /// row is decoded once and only a page and a buffer are held. Without a spill file, two walks
  /// (widths, then rows) do the same.
  private static func listTable(_ history: HistoryWalk, title: String, ledgerName: String, io: ConsoleIO) throws(CLIFailure) {
    var widths = header.map(\.displayWidth)
    func line(_ row: [String]) -> String {
      zip(row, widths).map { $0.padded(toWidth: $1) }.joined(separator: "  ").trimmingTrailingSpaces
    }
    func heading(_ count: Int) -> String { "\(title) — \(count) transaction\(count == 1 ? "" : "s") in \(ledgerName)" }
    if let spill = RowSpill() {
      var spilled = true
      do throws(LedgerError) {
        try history.forEachSummary { transaction in
          let row = cells(transaction)
          for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.displayWidth) }
          do { try spill.append(row) } catch { spilled = false }
          return spilled
        }
      } catch {
        throw CLIFailure(error)
      }
      if spilled {
        io.line(heading(spill.count))
        guard spill.count > 0 else { return }
        io.line(line(header))
        do { try spill.forEach { io.line(line($0)) } } catch {
          throw CLIFailure("Cannot read back the listing's temporary file: \(error.description).", .ioError)
        }
        return
      }
      widths = header.map(\.displayWidth)
    }
    do throws(LedgerError) {
      try listTableInTwoWalks(history, widths: &widths, title: heading, line: line, io: io)
    } catch {
      throw CLIFailure(error)
    }
  }

  /// A first walk finds the count and the column widths, a second prints the rows, stopping at the
  /// count the title shows (rows another process commits meanwhile are left out).
  private static func listTableInTwoWalks(
    _ history: HistoryWalk, widths: inout [Int], title: (Int) -> String, line: ([String]) -> String, io: ConsoleIO
  ) throws(LedgerError) {
    var count = 0
    try history.forEachSummary { transaction in
      count += 1
      for (column, cell) in cells(transaction).enumerated() { widths[column] = max(widths[column], cell.displayWidth) }
      return true
    }
    io.line(title(count))
    guard count > 0 else { return }
    io.line(line(header))
    var printed = 0
    try history.forEachSummary { transaction in
      io.line(line(cells(transaction)))
      printed += 1
      return printed < count
    }
  }

  private static func cells(_ t: TransactionSummary) -> [String] {
    var state = t.state.name
    if t.revocationDate != nil { state += " (refunded)" }
    if let error = t.error { state += " \(error.name)" }
    return [
      t.id.description, t.originalID.description, t.productID.rawValue, state, String(t.quantity),
      EventFormatter.timestamp(t.purchaseDate), t.expiresDate.map(EventFormatter.timestamp) ?? "-",
      t.isFinished ? "yes" : "no",
    ]
  }

  /// One JSON object per transaction: a first walk finds each subscription's newest period (which
  /// shows the current renewal info) among the summaries of the rows with an expiry date only (the
  /// others cannot be one), a second prints whole rows. The second walk runs to the end: rows
  /// another process commits meanwhile are printed, with the renewal info they were signed with.
  private static func listJSON(_ history: HistoryWalk, records: [SubscriptionRecord], io: ConsoleIO) throws(LedgerError) {
    var newest = NewestPeriods(records: records)
    if newest.hasCurrentInfo {
      try history.forEachSummary(expiringOnly: true) { transaction in
        newest.note(transaction)
        return true
      }
    }
    try history.forEach { transaction in
      io.line(EventFormatter.json(of: newest.current(transaction)))
      return true
    }
  }
}

/// An account's history (nil: every account's), read a page at a time in insertion order.
struct HistoryWalk {
  /// Rows per page: enough that a page's query is noise next to its rows' decoding, few enough
  /// that a page of signed rows (~10 KB each in memory) stays a few MB.
  static let pageSize = 256

  let ledger: any LedgerStore
  let account: String?
  /// Nothing to walk (no account signed in).
  var isEmpty = false

  /// Summaries per page: a summary is a few hundred bytes, so a larger page costs little memory
  /// and saves statements.
  static let summaryPageSize = 1024

  /// Hands each transaction to `body`, oldest first, until it returns false.
  func forEach(_ body: (PaymentTransaction) -> Bool) throws(LedgerError) {
    guard !isEmpty else { return }
    var cursor: HistoryCursor?
    repeat {
      let page = try ledger.historyPage(account: account, order: .insertion, after: cursor, limit: Self.pageSize)
      for transaction in page.rows where !body(transaction) { return }
      cursor = page.next
    } while cursor != nil
  }

  /// Hands each transaction's summary (with `expiringOnly`, of those with an expiry date) to
  /// `body`, oldest first, until it returns false.
  func forEachSummary(expiringOnly: Bool = false, _ body: (TransactionSummary) -> Bool) throws(LedgerError) {
    guard !isEmpty else { return }
    var cursor: HistoryCursor?
    repeat {
      let page = try ledger.historySummaryPage(
        account: account, after: cursor, limit: Self.summaryPageSize, expiringOnly: expiringOnly)
      for summary in page.rows where !body(summary) { return }
      cursor = page.next
    } while cursor != nil
  }
}

/// B40: each subscription's newest period shows the renewal info as it is now (signed whenever
/// the record changed), not the one signed with the transaction. Noted row by row, so a listing
/// finds them without holding the history: the newest period of a chain is the one with the
/// latest purchase date (of equal ones, the later in the listing).
struct NewestPeriods {
  private let current: [PaymentTransaction.ID: String]
  private var newest: [PaymentTransaction.ID: (id: PaymentTransaction.ID, purchased: Date)] = [:]

  init(records: [SubscriptionRecord]) {
    current = Dictionary(
      records.compactMap { record in record.signedRenewalInfo.map { (record.originalID, $0) } },
      uniquingKeysWith: { _, last in last })
  }

  /// Whether any subscription has a current renewal info (else no row needs noting).
  var hasCurrentInfo: Bool { !current.isEmpty }

  mutating func note(_ transaction: TransactionSummary) {
    guard transaction.expiresDate != nil, current[transaction.originalID] != nil else { return }
    if let best = newest[transaction.originalID], best.purchased > transaction.purchaseDate { return }
    newest[transaction.originalID] = (transaction.id, transaction.purchaseDate)
  }

  /// `transaction`, with its chain's current renewal info when it is the chain's newest period.
  func current(_ transaction: PaymentTransaction) -> PaymentTransaction {
    guard newest[transaction.originalID]?.id == transaction.id, let info = current[transaction.originalID] else { return transaction }
    var shown = transaction
    shown.signedRenewalInfo = info
    return shown
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
