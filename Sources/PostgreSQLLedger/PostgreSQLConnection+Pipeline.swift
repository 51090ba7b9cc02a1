import CPostgreSQL
import Foundation

/// Several statements in one round trip (libpq's pipeline mode), each a prepared statement of this
/// connection: a commit's `BEGIN`, writes, `NOTIFY` and `COMMIT` reach the server together instead
/// of one network round trip and one parse and plan each (DECISIONS §29).
extension PostgreSQLConnection {
  /// Sends `statements` at once and returns their results in order.
  ///
  /// A statement that fails makes the server skip the rest up to the end of the batch; the first
  /// failure is thrown once every result was read, and an open transaction is then in the failed
  /// state (the caller rolls it back, as after a failed ``execute(_:_:)``). A failure of one of the
  /// last `optional` statements, after all before them succeeded, is not thrown (what comes after a
  /// `COMMIT` cannot undo it); their results are then missing.
  @discardableResult
  func pipeline(_ statements: [(String, [PostgreSQLValue])], optional: Int = 0) throws(PostgreSQLFailure) -> [PostgreSQLResult] {
    guard let handle else { throw PostgreSQLFailure(sqlState: nil, message: "the connection was closed") }
    guard !statements.isEmpty else { return [] }
    guard PQenterPipelineMode(handle) == 1 else { throw lost(handle) }
    defer { leavePipeline(handle) }
    var sent: [String?] = []  // per result to read: nil for a statement's, the SQL for a Parse of ours
    for (sql, parameters) in statements {
      let name: String
      if let known = prepared.name(of: sql, on: handle) {
        name = known
      } else {
        name = prepared.reserve(sql, on: handle)
        guard PQsendPrepare(handle, name, sql, Int32(parameters.count), nil) == 1 else {
          prepared.forget(sql)
          throw lost(handle)
        }
        sent.append(sql)
      }
      let queued = Self.withWire(parameters) { count, values, lengths, formats in
        PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0)
      }
      guard queued == 1 else { throw lost(handle) }
      sent.append(nil)
    }
    guard PQpipelineSync(handle) == 1 else { throw lost(handle) }
    var results: [PostgreSQLResult] = []
    var failure: PostgreSQLFailure?
    let required = statements.count - optional
    var index = 0  // the statement this result belongs to (a Parse's: the one it prepares)
    for parsed in sent {
      let isStatement = parsed == nil
      defer { if isStatement { index += 1 } }
      // Each statement's results end with a null; a null first means the connection went.
      guard let result = PQgetResult(handle) else { throw lost(handle) }
      while let extra = PQgetResult(handle) { PQclear(extra) }
      let status = PQresultStatus(result)
      if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
        if isStatement { results.append(PostgreSQLResult(result)) } else { PQclear(result) }
        continue
      }
      // A Parse that never ran leaves no statement behind; make it again next time.
      if let parsed { prepared.forget(parsed) }
      if status != PGRES_PIPELINE_ABORTED, failure == nil, index < required { failure = failed(result) }
      PQclear(result)
    }
    guard let sync = PQgetResult(handle) else { throw lost(handle) }
    let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
    PQclear(sync)
    if let failure { throw failure }
    guard synced else { throw lost(handle) }
    return results
  }

  /// Calls `body` with `parameters` as libpq's parallel arrays (text, NUL-terminated; binary by length).
  static func withWire<Result>(
    _ parameters: [PostgreSQLValue],
    _ body: (Int32, [UnsafePointer<CChar>?], [Int32], [Int32]) -> Result
  ) -> Result {
    let wires = parameters.map(\.wire)
    let buffers: [UnsafeMutablePointer<CChar>?] = wires.map { wire in
      guard let wire else { return nil }
      // Text parameters are read up to their NUL (libpq ignores their length); binary ones by length.
      let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: wire.bytes.count + 1)
      for (offset, byte) in wire.bytes.enumerated() { (buffer + offset).initialize(to: CChar(bitPattern: byte)) }
      (buffer + wire.bytes.count).initialize(to: 0)
      return buffer
    }
    defer { for buffer in buffers { buffer?.deallocate() } }
    let values: [UnsafePointer<CChar>?] = buffers.map { $0.map { UnsafePointer($0) } }
    let lengths = wires.map { Int32($0?.bytes.count ?? 0) }
    let formats = wires.map { Int32(($0?.isBinary ?? false) ? 1 : 0) }
    return body(Int32(wires.count), values, lengths, formats)
  }

  /// Back to one statement at a time; results a failure left unread are dropped first (bounded:
  /// libpq returns null once nothing is pending, and at once on a dead connection).
  private func leavePipeline(_ handle: OpaquePointer) {
    for _ in 0..<1_000 {
      if PQexitPipelineMode(handle) == 1 { return }
      guard let stray = PQgetResult(handle) else { continue }
      PQclear(stray)
    }
  }

  private func lost(_ handle: OpaquePointer) -> PostgreSQLFailure {
    PostgreSQLFailure(sqlState: nil, message: address.scrub(Self.trimmed(PQerrorMessage(handle))))
  }

  private func failed(_ result: OpaquePointer) -> PostgreSQLFailure {
    let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
    return PostgreSQLFailure(sqlState: state, message: address.scrub(Self.trimmed(PQresultErrorMessage(result))))
  }
}
