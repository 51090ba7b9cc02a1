import Foundation
import SQLiteLedger
import ServerNotifications
import StoreEngine
import StorefrontLive

/// `storefront notifications url [URL | off | --clear] [--environment NAME]`: App Store Connect's
/// notification URL setting, per environment, in the ledger.
enum NotificationsURLCommand {
  static let descriptor = CommandDescriptor(
    path: ["notifications", "url"],
    arguments: "[<url> | off | --clear] [--environment Sandbox|Production]",
    summary: "Show, set or clear the notification URL of an environment.",
    discussion: """
      Without a URL, shows the notification URL of --environment (default: both). With one (http or \
      https, with a host), sets it for --environment (default Sandbox): from then on every \
      storefront process on the data directory queues that environment's notifications, and \
      `storefront serve --environment` of it delivers them. `off` (as the scenario line \
      `notifications url off`) or --clear removes it (nothing is queued any more). Credentials in the URL are kept but never printed.
      """,
    options: [
      OptionSpec("--clear", help: "Remove the URL: notifications are no longer queued."),
      OptionSpec("--environment", value: "name", help: "'Sandbox' (default when setting) or 'Production'."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    guard invocation.operands.count <= 1 else {
      throw invocation.usageError("Unexpected argument '\(invocation.operands[1])': give one URL.", for: descriptor)
    }
    let chosen = invocation.arguments.value("--environment")
    if let chosen, chosen != "Sandbox", chosen != "Production" {
      throw invocation.usageError("Unknown environment '\(chosen)': use Sandbox or Production.", for: descriptor)
    }
    // `off` as the scenario verb `notifications url off` has it; --clear stays.
    let off = invocation.operands.first == "off"
    let clear = invocation.arguments.flag("--clear") || off
    let operand = off ? nil : invocation.operands.first
    if clear, operand != nil {
      throw invocation.usageError("Give a URL or --clear, not both.", for: descriptor)
    }
    guard clear || operand != nil else { return try show(invocation, environments: chosen.map { [$0] } ?? ["Sandbox", "Production"]) }
    let environment = chosen ?? "Sandbox"
    var url: NotificationURL?
    if let operand {
      do throws(NotificationURL.Invalid) {
        url = try NotificationURL(validating: operand)
      } catch {
        throw invocation.usageError("Invalid notification URL: \(error.reason).", for: descriptor)
      }
    }
    let catalog: Catalog
    switch CatalogSource.load(invocation.global.catalogPath) {
    case .success(let loaded): catalog = loaded.catalog
    case .failure(let error): throw CatalogSource.failure(error, io: invocation.io)
    }
    let clock = try ClockChoice.resolve(invocation.global, environment: invocation.environment, default: .scenarioEpoch)
    let store = try LiveStore.open(catalog: catalog, global: invocation.global, environment: invocation.environment, clock: clock)
    do throws(EngineError) {
      try store.queue.refresh()
      _ = try store.queue.perform(.setNotificationURL(environment: environment, url: url?.text))
      store.ledger.close()
    } catch {
      throw CLIFailure(error, otherwise: .software)
    }
    invocation.io.line(url.map { "\(environment) notification URL: \($0)" } ?? "\(environment) notification URL cleared.")
    return .success
  }

  private static func show(_ invocation: Invocation, environments: [String]) throws(CLIFailure) -> ExitCode {
    var urls: [String: String] = [:]
    do throws(LedgerError) {
      let location = try LedgerLocation.resolve(invocation.global, environment: invocation.environment)
      if location.exists {
        let ledger = try location.open(readOnly: true)
        defer { ledger.close() }
        for environment in environments { urls[environment] = try ledger.notificationURL(environment: environment) }
      }
    } catch {
      throw CLIFailure(error)
    }
    for environment in environments {
      invocation.io.line("\(environment): \(urls[environment].map(NotificationURL.redacted) ?? "none")")
    }
    return .success
  }
}
