import Foundation
import StoreServer

/// `storefront keys list [--json]`: the keys `storefront serve` knows.
enum KeysListCommand {
  static let descriptor = CommandDescriptor(
    path: ["keys", "list"],
    arguments: "[--json]",
    summary: "List the API keys and whether they are revoked.",
    discussion: "Shows each key's id, name, issuer id, creation date and status. Nothing secret is shown.",
    options: [OptionSpec("--json", help: "Print one JSON object per key.")],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    if let extra = invocation.operands.first {
      throw invocation.usageError("Unexpected argument '\(extra)': keys list takes no operands.", for: descriptor)
    }
    let registry: APIKeyRegistry?
    let store = try invocation.keyStore()
    do throws(APIKeyStoreError) { registry = try store.load() } catch { throw CLIFailure(keys: error) }
    let keys = registry?.keys ?? []
    let formatter = ISO8601DateFormatter()
    if invocation.arguments.flag("--json") {
      for key in keys {
        var object: [String: Any] = [
          "keyId": key.keyID, "name": key.name, "issuerId": key.issuerID, "created": formatter.string(from: key.created),
        ]
        object["revoked"] = key.revoked.map(formatter.string(from:)) ?? NSNull()
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        invocation.io.line(String(decoding: data, as: UTF8.self))
      }
      return .success
    }
    guard !keys.isEmpty else {
      invocation.io.line("No API keys in this data directory: `storefront keys create` makes one.")
      return .success
    }
    let rows = [["KEY ID", "NAME", "ISSUER ID", "CREATED", "STATUS"]]
      + keys.map { [$0.keyID, $0.name, $0.issuerID, formatter.string(from: $0.created), $0.isRevoked ? "revoked" : "active"] }
    let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    for row in rows {
      var line = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      invocation.io.line(line)
    }
    return .success
  }
}
