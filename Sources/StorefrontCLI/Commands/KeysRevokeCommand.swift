import Foundation
import StoreServer

/// `storefront keys revoke ID`: tokens signed with the key are refused from the next request on.
enum KeysRevokeCommand {
  static let descriptor = CommandDescriptor(
    path: ["keys", "revoke"],
    arguments: "KEYID",
    summary: "Revoke an API key; a running `storefront serve` refuses it at once.",
    discussion: "Marks the key revoked. Every request signed with it gets 401, also on a server already running.",
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    let keyID: String
    switch invocation.singleOperand("KEYID", missing: "give the id of the key to revoke (`storefront keys list`).", for: descriptor) {
    case .success(let operand): keyID = operand
    case .failure(let failure): throw failure
    }
    let store = try invocation.keyStore()
    do throws(APIKeyStoreError) {
      let key = try store.revoke(keyID, now: Date())
      invocation.io.line("Revoked API key \(key.keyID).")
      return .success
    } catch {
      throw CLIFailure(keys: error)
    }
  }
}
