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

  static func run(_ invocation: Invocation) -> Int32 {
    let keyID: String
    switch invocation.singleOperand("KEYID", missing: "give the id of the key to revoke (`storefront keys list`).", for: descriptor) {
    case .success(let operand): keyID = operand
    case .failure(let exit): return exit.code
    }
    do {
      let key = try invocation.keyStore().revoke(keyID, now: Date())
      invocation.io.line("Revoked API key \(key.keyID).")
      return ExitCode.success
    } catch {
      return invocation.report(error)
    }
  }
}
