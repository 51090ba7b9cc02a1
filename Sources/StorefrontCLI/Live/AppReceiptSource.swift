import Foundation

/// Where the simulated app reads its app receipt for the `receipt` field of its server call.
enum AppReceiptSource {
  /// The reader for `store`'s accounts: the receipt as it is at the call, for the store's bundle id
  /// and signing environment (an Xcode-signed store has none, as Xcode's local receipts are its own).
  static func reader(for store: LiveStore) -> ((String) throws -> Data?)? {
    let environment = store.queue.machine.environment
    let signing = environment.signer?.environment ?? "Sandbox"
    guard signing != "Xcode" else { return nil }
    let bundleID = environment.bundleID
    return { account in try store.receipt(account: account, bundleID: bundleID, environment: signing) }
  }
}
