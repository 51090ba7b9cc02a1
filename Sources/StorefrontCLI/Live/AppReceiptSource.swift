import Foundation

/// Where the simulated app reads its app receipt for the `receipt` field of its server call.
enum AppReceiptSource {
  /// The reader for `store`'s accounts; nil until the receipt builder (issue 15, first half) is
  /// wired here, and then the field is sent whenever it gives data.
  static func reader(for store: LiveStore) -> ((String) throws -> Data?)? {
    nil
  }
}
