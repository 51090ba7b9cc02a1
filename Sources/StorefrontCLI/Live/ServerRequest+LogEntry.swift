import Foundation
import StoreServer
import StoreTUI

extension ServerRequest {
  /// The Server pane's row for a request-log entry (built on the server's thread; only a value crosses to the TUI).
  init(_ entry: RequestLogEntry) {
    let details = entry.details
    self.init(
      date: entry.date, method: entry.method, path: entry.path,
      query: details?.query.map { $0.value.isEmpty ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: "&") ?? "",
      status: entry.status, latencyNanoseconds: entry.latencyNanoseconds, keyID: entry.keyID,
      token: details?.token.map(Token.init), rejection: details?.rejection, contentType: details?.contentType ?? "",
      body: details?.body ?? Data())
  }
}

extension ServerRequest.Token {
  init(_ summary: TokenSummary) {
    self.init(
      algorithm: summary.algorithm, keyID: summary.keyID, type: summary.type, issuer: summary.issuer, audience: summary.audience,
      bundleID: summary.bundleID, issuedAt: summary.issuedAt, expires: summary.expires)
  }
}
