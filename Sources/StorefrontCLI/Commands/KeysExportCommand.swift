import Foundation
import StoreServer

/// `storefront keys export KEYID [--out FILE]`: a key's `.p8`, from the team's shared ledger on a machine that did not make it.
enum KeysExportCommand {
  static let descriptor = CommandDescriptor(
    path: ["keys", "export"],
    arguments: "KEYID [--out <file>]",
    summary: "Write an API key's AuthKey_<KEYID>.p8 (on a shared ledger, from any machine).",
    discussion: """
      Writes the private key `keys create` made for KEYID (PKCS#8 PEM, mode 0600) to --out, by \
      default to the data directory's keys folder, and prints the path. On a shared PostgreSQL \
      ledger the key is kept in the database, sealed with the team's key, so a backend on another \
      machine can get it this way. An imported key's .p8 was never stored: it stays with you.
      """,
    options: [OptionSpec("--out", value: "file", help: "Where to write the .p8 (replaced if present).")],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    let keyID: String
    switch invocation.singleOperand("KEYID", missing: "give the id of the key to export (`storefront keys list`).", for: descriptor) {
    case .success(let operand): keyID = operand
    case .failure(let failure): throw failure
    }
    let store = try invocation.keyStore()
    do throws(APIKeyStoreError) {
      guard try store.load()?.key(keyID) != nil else { throw .unknownKey(keyID) }
      let file = try store.exportPrivateKey(keyID, to: invocation.arguments.value("--out").map { URL(fileURLWithPath: $0) })
      invocation.io.line(file.path)
      return .success
    } catch {
      throw CLIFailure(keys: error)
    }
  }
}
