import Foundation
import StoreServer

/// `storefront keys import FILE.p8 --key-id ID --issuer ID`: trust a developer's existing key.
enum KeysImportCommand {
  static let descriptor = CommandDescriptor(
    path: ["keys", "import"],
    arguments: "FILE.p8 --key-id <id> --issuer <id> [--name <name>]",
    summary: "Register an existing App Store Connect key (.p8) with `storefront serve`.",
    discussion: """
      Reads the private key in FILE.p8 (PEM, P-256) and registers only its public half under the \
      given key id and issuer id, so a backend already configured for Apple changes nothing but its \
      base URL. The file is not copied.
      """,
    options: [
      OptionSpec("--key-id", value: "id", help: "The key id App Store Connect shows (10 upper-case letters and digits)."),
      OptionSpec("--issuer", value: "id", help: "The issuer id (a UUID) App Store Connect shows."),
      OptionSpec("--name", value: "name", help: "A name to tell keys apart in `keys list` (default: the file's name)."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    let path: String
    switch invocation.singleOperand("FILE", missing: "give the .p8 file to import.", for: descriptor) {
    case .success(let operand): path = operand
    case .failure(let failure): throw failure
    }
    guard let keyID = invocation.arguments.value("--key-id") else {
      throw invocation.usageError("Missing --key-id: give the key id App Store Connect shows for this key.", for: descriptor)
    }
    guard let issuer = invocation.arguments.value("--issuer") else {
      throw invocation.usageError("Missing --issuer: give your issuer id from App Store Connect.", for: descriptor)
    }
    var generator = invocation.keyIdentifierGenerator
    let store = try invocation.keyStore()
    do throws(APIKeyStoreError) {
      let key = try store.importKey(
        from: URL(fileURLWithPath: path), keyID: keyID, issuerID: issuer, name: invocation.arguments.value("--name"), now: Date(),
        generator: &generator)
      invocation.io.line("Imported API key \(key.keyID) (issuer \(key.issuerID)).")
      return .success
    } catch {
      throw CLIFailure(keys: error)
    }
  }
}
