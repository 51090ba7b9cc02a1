import AppReceipt
import Foundation
import SharedLedgerSecrets
import StoreEngine

/// `storefront keys shared-secret [--rotate]`: the app-specific shared secret of `verifyReceipt`.
enum KeysSharedSecretCommand {
  static let descriptor = CommandDescriptor(
    path: ["keys", "shared-secret"],
    arguments: "[--rotate]",
    summary: "Show (or rotate) the app-specific shared secret verifyReceipt checks.",
    discussion: """
      Prints the shared secret a backend sends as `password` to `POST /verifyReceipt`, making one \
      on first use (32 hex digits in the data directory's shared-secret file, mode 0600; on a shared \
      PostgreSQL ledger in the database, sealed with the team's key, the same on every machine). \
      --rotate replaces it: every serve on the data directory (or the shared ledger) answers 21004 to \
      the old one from the next request.
      """,
    options: [OptionSpec("--rotate", help: "Make a new secret; the old one stops working at once.")],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    if let extra = invocation.operands.first {
      throw invocation.usageError("Unexpected argument '\(extra)': keys shared-secret takes no operands.", for: descriptor)
    }
    let storage: SharedSecretStorage?
    do {
      storage = try SharedSecretStorage.resolve(invocation.global, environment: invocation.environment)
    } catch {
      throw CLIFailure(error, otherwise: .unavailable)
    }
    let file = SharedSecretStore(
      directory: URL(fileURLWithPath: invocation.global.dataDirectory(environment: invocation.environment)), storage: storage)
    let random = { (0..<16).map { _ in UInt8.random(in: 0...255) } }
    do throws(SharedSecretStore.WriteError) {
      let secret = invocation.arguments.flag("--rotate") ? try file.rotate(randomBytes: random) : try file.readOrCreate(randomBytes: random)
      invocation.io.line(secret)
    } catch {
      throw CLIFailure("\(error)", .cannotCreate)
    }
    return .success
  }
}
