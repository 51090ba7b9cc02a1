import Foundation
import SQLiteLedger
import ServerNotifications
import StoreEngine

/// `storefront notifications url [URL | --clear] [--environment NAME]`: App Store Connect's
/// notification URL setting, per environment, in the ledger.
enum NotificationsURLCommand {
  static let descriptor = CommandDescriptor(
    path: ["notifications", "url"],
    arguments: "[<url> | --clear] [--environment Sandbox|Production]",
    summary: "Show, set or clear the notification URL of an environment.",
    discussion: """
      Without a URL, shows the notification URL of --environment (default: both). With one (http or \
      https, with a host), sets it for --environment (default Sandbox): from then on every \
      storefront process on the data directory queues that environment's notifications, and \
      `storefront serve --environment` of it delivers them. --clear removes it (nothing is queued \
      any more). Credentials in the URL are kept but never printed.
      """,
    options: [
      OptionSpec("--clear", help: "Remove the URL: notifications are no longer queued."),
      OptionSpec("--environment", value: "name", help: "'Sandbox' (default when setting) or 'Production'."),
    ],
    run: run)

  static func run(_ invocation: Invocation) -> Int32 {
    guard invocation.operands.count <= 1 else {
      return invocation.usageError("Unexpected argument '\(invocation.operands[1])': give one URL.", for: descriptor)
    }
    let chosen = invocation.arguments.value("--environment")
    if let chosen, chosen != "Sandbox", chosen != "Production" {
      return invocation.usageError("Unknown environment '\(chosen)': use Sandbox or Production.", for: descriptor)
    }
    let clear = invocation.arguments.flag("--clear")
    let operand = invocation.operands.first
    if clear, operand != nil {
      return invocation.usageError("Give a URL or --clear, not both.", for: descriptor)
    }
    guard clear || operand != nil else { return show(invocation, environments: chosen.map { [$0] } ?? ["Sandbox", "Production"]) }
    let environment = chosen ?? "Sandbox"
    var url: NotificationURL?
    if let operand {
      do throws(NotificationURL.Invalid) {
        url = try NotificationURL(validating: operand)
      } catch {
        return invocation.usageError("Invalid notification URL: \(error.reason).", for: descriptor)
      }
    }
    let catalog: Catalog
    switch CatalogSource.load(invocation.global.catalogPath) {
    case .success(let loaded): catalog = loaded.catalog
    case .failure(let error): return CatalogSource.report(error, io: invocation.io)
    }
    do {
      let store = try LiveStore.open(
        catalog: catalog, global: invocation.global, environment: invocation.environment, start: .fixed(LiveStore.scenarioEpoch))
      try store.queue.refresh()
      _ = try store.queue.perform(.setNotificationURL(environment: environment, url: url?.text))
      store.ledger.close()
    } catch let error as LiveStore.OpenError {
      invocation.io.errorLine(error.description)
      return error.exitCode
    } catch {
      invocation.io.errorLine("Error: \(error)")
      return ExitCode.software
    }
    invocation.io.line(url.map { "\(environment) notification URL: \($0)" } ?? "\(environment) notification URL cleared.")
    return ExitCode.success
  }

  private static func show(_ invocation: Invocation, environments: [String]) -> Int32 {
    var urls: [String: String] = [:]
    do throws(LedgerError) {
      let location = try LedgerLocation.resolve(invocation.global, environment: invocation.environment)
      if location.exists {
        let ledger = try location.open(readOnly: true)
        defer { ledger.close() }
        for environment in environments { urls[environment] = try ledger.notificationURL(environment: environment) }
      }
    } catch {
      invocation.io.errorLine("Error: \(error)")
      return LiveStore.exitCode(for: error)
    }
    for environment in environments {
      invocation.io.line("\(environment): \(urls[environment].map(NotificationURL.redacted) ?? "none")")
    }
    return ExitCode.success
  }
}
