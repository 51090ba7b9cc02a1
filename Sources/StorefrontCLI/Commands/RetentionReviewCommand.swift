import Foundation
import StoreEngine

/// `storefront retention review [approved | pending | rejected]`: the review state the Retention
/// Messaging API gives an uploaded image or message (``RetentionMessaging/reviewOutcome``), in the
/// ledger like the rest of the configuration.
enum RetentionReviewCommand {
  static let descriptor = CommandDescriptor(
    path: ["retention", "review"],
    arguments: "[approved | pending | rejected]",
    summary: "Show or set the review state Retention Messaging uploads get.",
    discussion: """
      The simulator has no App Review: an image or message uploaded through `storefront serve`'s \
      Retention Messaging API (/inApps/v1/messaging/...) gets this state at once. `approved` (the \
      default) makes uploads usable as defaults and in the cancel sheet; `pending` or `rejected` \
      tests how an app copes with a message still in review or refused. Without an argument, shows \
      the current state. The setting is in the ledger, so every process on it (a PostgreSQL team \
      sandbox too) uses it from the next upload on; uploads already made keep their state.
      """,
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    guard invocation.operands.count <= 1 else {
      throw invocation.usageError("Unexpected argument '\(invocation.operands[1])': give one state.", for: descriptor)
    }
    var state: RetentionMessaging.ReviewState?
    if let operand = invocation.operands.first {
      guard let chosen = RetentionMessaging.ReviewState(rawValue: operand.uppercased()) else {
        throw invocation.usageError("Unknown review state '\(operand)': use approved, pending or rejected.", for: descriptor)
      }
      state = chosen
    }
    let catalog: Catalog
    switch CatalogSource.load(invocation.global.catalogPath) {
    case .success(let loaded): catalog = loaded.catalog
    case .failure(let error): throw CatalogSource.failure(error, io: invocation.io)
    }
    let clock = try ClockChoice.resolve(invocation.global, environment: invocation.environment, default: .scenarioEpoch)
    let store = try LiveStore.open(catalog: catalog, global: invocation.global, environment: invocation.environment, clock: clock)
    defer { store.ledger.close() }
    let retention = RetentionMessagingStore(ledger: store.ledger)
    if let state {
      do throws(RetentionMessagingStore.WriteError) {
        try retention.update { $0.reviewOutcome = state }
      } catch {
        throw CLIFailure(error.description, .cannotCreate)
      }
    }
    let current = retention.read().reviewOutcome
    invocation.io.line("Retention Messaging review state: \(current.rawValue.lowercased())\(state == nil ? "" : " (set)")")
    return .success
  }
}
