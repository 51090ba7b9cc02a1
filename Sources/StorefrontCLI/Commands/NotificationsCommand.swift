import Foundation
import SQLiteLedger
import StoreEngine
import StorefrontLive
import StoreTUI

/// `storefront notifications [--json] [--environment NAME]`: the outbox with its deliveries.
enum NotificationsCommand {
  static let descriptor = CommandDescriptor(
    path: ["notifications"],
    arguments: "[--json] [--environment Sandbox|Production]",
    summary: "List the App Store Server Notifications in the ledger's outbox.",
    discussion: """
      Lists every notification queued in the data directory's ledger, oldest first: its sequence, \
      environment, type and subtype, transaction, state (pending, delivered, failed) and each \
      delivery attempt's result and HTTP status. `storefront serve` delivers them; nothing is changed.
      """,
    options: [
      OptionSpec("--json", help: "Print one JSON object per notification, with every attempt's date."),
      OptionSpec("--environment", value: "name", help: "Only 'Sandbox' or 'Production' notifications."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    if let extra = invocation.operands.first {
      throw invocation.usageError("Unexpected argument '\(extra)': notifications takes no operands (did you mean `notifications url`?).", for: descriptor)
    }
    let environment = invocation.arguments.value("--environment")
    if let environment, environment != "Sandbox", environment != "Production" {
      throw invocation.usageError("Unknown environment '\(environment)': use Sandbox or Production.", for: descriptor)
    }
    let location: LedgerLocation
    do throws(LedgerError) {
      location = try LedgerLocation.resolve(invocation.global, environment: invocation.environment)
    } catch {
      throw CLIFailure(error)
    }
    guard location.exists else {
      invocation.io.errorLine("No ledger at '\(location.displayName)' yet: nothing has been queued with this data directory.")
      return .noInput
    }
    var entries: [OutboxEntry] = []
    do throws(LedgerError) {
      let ledger = try location.open(readOnly: true)
      defer { ledger.close() }
      // Paged, so a long outbox is not one query's worth of memory twice.
      var after: Int64 = 0
      while true {
        let page = try ledger.outbox(after: after, limit: 1_000)
        entries += page.filter { environment == nil || $0.notification.environment == environment }
        guard let last = page.last else { break }
        after = last.sequence
      }
    } catch {
      throw CLIFailure(error)
    }
    if invocation.arguments.flag("--json") {
      for entry in entries { invocation.io.line(NotificationListing.jsonLine(entry)) }
      return .success
    }
    invocation.io.line("\(entries.count) notification\(entries.count == 1 ? "" : "s") in \(location.displayName)")
    guard !entries.isEmpty else { return .success }
    let rows = [NotificationListing.header] + entries.map(NotificationListing.row)
    let widths = NotificationListing.header.indices.map { column in rows.map { $0[column].displayWidth }.max() ?? 0 }
    for row in rows {
      let line = zip(row, widths).map { $0.padded(toWidth: $1) }.joined(separator: "  ")
      invocation.io.line(String(line.reversed().drop { $0 == " " }.reversed()))
    }
    return .success
  }
}
