import AppReceipt
import Foundation
import SandboxSigning
import SharedLedgerSecrets
import StoreEngine
import StorefrontLive

/// `storefront receipt [--account NAME] [--out FILE] [--base64] [--environment E]`: the app receipt.
enum ReceiptCommand {
  static let descriptor = CommandDescriptor(
    path: ["receipt"],
    arguments: "[--account <name>] [--out <path>] [--base64] [--environment Sandbox|Production]",
    summary: "Export the app receipt (PKCS#7) of an account, for verifyReceipt.",
    discussion: """
      Builds the app receipt of --account (default: the account signed in last) from the data \
      directory's ledger as it is now: Apple's receipt ASN.1 (bundle id, versions, and one in-app \
      purchase per transaction Apple lists: unfinished consumables, every non-consumable and \
      subscription period, refunds with their cancellation date) in a PKCS#7 SignedData signed by \
      the sandbox CA (`storefront certificate` exports its root). With --out it writes the DER to \
      the file (base64 text with --base64); without --out it prints base64 on standard output, \
      what a backend POSTs as receipt-data. --environment Production makes a production receipt \
      (sandbox is the default), which a sandbox verifyReceipt answers with 21008.
      """,
    options: [
      OptionSpec("--out", value: "path", help: "Write the receipt to this file (DER, or base64 with --base64)."),
      OptionSpec("--base64", help: "Base64 text instead of DER (the default on standard output)."),
      OptionSpec("--environment", value: "name", help: "Sandbox (default) or Production."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    if let extra = invocation.operands.first {
      throw invocation.usageError("Unexpected argument '\(extra)': use --out PATH to choose where to write.", for: descriptor)
    }
    let environment = invocation.arguments.value("--environment") ?? "Sandbox"
    guard environment == "Sandbox" || environment == "Production" else {
      throw invocation.usageError("Unknown environment '\(environment)': use Sandbox or Production.", for: descriptor)
    }
    let directory = URL(fileURLWithPath: invocation.global.dataDirectory(environment: invocation.environment))
    let receipt: Data
    do {
      let location = try LedgerLocation.resolve(invocation.global, environment: invocation.environment)
      let ledgerName = location.displayName
      guard location.exists else {
        invocation.io.errorLine("No ledger at '\(ledgerName)' yet: nothing has been bought with this data directory. Run `storefront` or `storefront run SCRIPT` first, or pass --data-dir.")
        return .noInput
      }
      let ledger = try location.open(readOnly: true)
      defer { ledger.close() }
      let snapshot = try ledger.load()
      guard let account = invocation.global.account ?? snapshot.currentAccount else {
        invocation.io.errorLine("No account is signed in in '\(ledgerName)': pass --account NAME.")
        return .usage
      }
      guard snapshot.accounts.contains(where: { $0.name == account }) else {
        let names = snapshot.accounts.map(\.name)
        invocation.io.errorLine("Unknown account '\(account)' in '\(ledgerName)'.\(NearMatchText.didYouMean(account, in: names)) Accounts: \(names.isEmpty ? "none" : names.joined(separator: ", ")).")
        return .noInput
      }
      let authority = try SandboxCertificateAuthority.open(
        in: directory.appendingPathComponent("ca", isDirectory: true),
        storage: try SharedSecretStorage.resolve(invocation.global, environment: invocation.environment), validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
      let now = snapshot.clock ?? Date()
      let builder = AppReceiptBuilder(
        ledger: ledger, authority: authority, bundleID: invocation.global.bundleID ?? LiveStore.defaultBundleID,
        environment: environment, now: { now })
      receipt = try builder.receipt(account: account)
    } catch {
      throw CLIFailure(error, otherwise: .cannotCreate)
    }
    let base64 = invocation.arguments.flag("--base64")
    guard let out = invocation.arguments.value("--out") else {
      invocation.io.line(receipt.base64EncodedString())
      return .success
    }
    do {
      try (base64 ? Data((receipt.base64EncodedString() + "\n").utf8) : receipt).write(to: URL(fileURLWithPath: out), options: .atomic)
    } catch {
      throw CLIFailure("cannot write '\(out)': \(error.localizedDescription). Check that its folder exists and is writable.", .cannotCreate)
    }
    invocation.io.errorLine("Wrote the app receipt (\(base64 ? "base64" : "DER"), \(receipt.count) bytes) to '\(out)'.")
    return .success
  }
}
