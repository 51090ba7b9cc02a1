import Foundation
import SQLiteLedger
import StoreEngine
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
    let account: String?
    let list: [PaymentTransaction]
    var records: [SubscriptionRecord] = []
    do throws(LedgerError) {
      let ledger = try location.open(readOnly: true)
      defer { ledger.close() }
      let snapshot = try ledger.load()
      if let chosen = invocation.global.account { account = chosen } else { account = snapshot.currentAccount }
      records = snapshot.subscriptions
      if all {
        list = try ledger.allTransactions()
      } else if let account {
        list = try ledger.history(account: account)
      } else {
        list = []
      }
    } catch {
      throw CLIFailure(error)
    }
    if invocation.arguments.flag("--json") {
      for transaction in Self.withCurrentRenewalInfo(list, records: records) {
        invocation.io.line(EventFormatter.json(of: transaction))
      }
      return .success
    }
    let title = all ? "All accounts" : "Account: \(account ?? "none signed in")"
    invocation.io.line("\(title) — \(list.count) transaction\(list.count == 1 ? "" : "s") in \(location.displayName)")
    guard !list.isEmpty else { return .success }
    let header = ["ID", "ORIGINAL", "PRODUCT", "STATE", "QTY", "PURCHASED", "EXPIRES", "FINISHED"]
    var rows = [header]
    for t in list {
      var state = t.state.name
      if t.revocationDate != nil { state += " (refunded)" }
      if let error = t.error { state += " \(error.name)" }
      rows.append([
        t.id.description, t.originalID.description, t.productID.rawValue, state, String(t.quantity),
        EventFormatter.timestamp(t.purchaseDate), t.expiresDate.map(EventFormatter.timestamp) ?? "-",
        t.isFinished ? "yes" : "no",
      ])
    }
    let widths = header.indices.map { column in rows.map { $0[column].displayWidth }.max() ?? 0 }
    for row in rows {
      invocation.io.line(zip(row, widths).map { $0.padded(toWidth: $1) }.joined(separator: "  ").trimmingTrailingSpaces)
    }
    return .success
  }
}

extension TransactionsCommand {
  /// B40: each subscription's newest period shows the renewal info as it is now (signed whenever
  /// the record changed), not the one signed with the transaction.
  static func withCurrentRenewalInfo(_ list: [PaymentTransaction], records: [SubscriptionRecord]) -> [PaymentTransaction] {
    let current = Dictionary(records.compactMap { record in record.signedRenewalInfo.map { (record.originalID, $0) } },
                             uniquingKeysWith: { _, last in last })
    var newest: [PaymentTransaction.ID: Int] = [:]
    for (index, transaction) in list.enumerated() where transaction.expiresDate != nil && current[transaction.originalID] != nil {
      if let best = newest[transaction.originalID], list[best].purchaseDate > transaction.purchaseDate { continue }
      newest[transaction.originalID] = index
    }
    var result = list
    for (original, index) in newest { result[index].signedRenewalInfo = current[original] }
    return result
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
