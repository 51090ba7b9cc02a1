import Foundation
import StoreEngine
import StoreServer

/// `storefront keys create [--name N] [--json]`: an In-App Purchase API key for `storefront serve`.
enum KeysCreateCommand {
  static let descriptor = CommandDescriptor(
    path: ["keys", "create"],
    arguments: "[--name <name>] [--json]",
    summary: "Create an API key for `storefront serve` (AuthKey_<KEYID>.p8).",
    discussion: """
      Makes a P-256 key and writes it as AuthKey_<KEYID>.p8 (PKCS#8 PEM, mode 0600, the form App \
      Store Connect hands out) in the data directory's keys folder, registers its public half, and \
      prints the file's path, the key id and the issuer id to configure a backend with. The private \
      key is written only to that file, never printed.
      """,
    options: [
      OptionSpec("--name", value: "name", help: "A name to tell keys apart in `keys list`."),
      OptionSpec("--json", help: "Print {\"keyId\", \"issuerId\", \"privateKeyFile\", \"bundleId\"} as one JSON object."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    if let extra = invocation.operands.first {
      throw invocation.usageError("Unexpected argument '\(extra)': use --name NAME to name the key.", for: descriptor)
    }
    var generator = invocation.keyIdentifierGenerator
    let created: CreatedAPIKey
    let store = try invocation.keyStore()
    do throws(APIKeyStoreError) {
      created = try store.create(name: invocation.arguments.value("--name"), now: Date(), generator: &generator)
    } catch {
      throw CLIFailure(keys: error)
    }
    let bundleID = invocation.global.bundleID ?? LiveStore.defaultBundleID
    if invocation.arguments.flag("--json") {
      let object = [
        "keyId": created.key.keyID, "issuerId": created.key.issuerID, "privateKeyFile": created.privateKeyFile.path, "bundleId": bundleID,
      ]
      let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
      invocation.io.line(String(decoding: data, as: UTF8.self))
      return .success
    }
    invocation.io.line("Created API key \(created.key.keyID) (\(created.key.name)).")
    invocation.io.line("  Private key: \(created.privateKeyFile.path)")
    invocation.io.line("  Key ID:      \(created.key.keyID)")
    invocation.io.line("  Issuer ID:   \(created.key.issuerID)")
    invocation.io.line("  Bundle ID:   \(bundleID)")
    invocation.io.line("Give these to your backend's App Store Server API client and point it at `storefront serve`.")
    return .success
  }
}
