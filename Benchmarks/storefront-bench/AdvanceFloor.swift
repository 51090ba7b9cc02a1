import Foundation
import SQLiteLedger
import SandboxSigning
import StoreEngine

/// `advance_day_every_2s_floor_s`: the part of an every-2s advance no engine can skip, timed like
/// the advance (wall and CPU) in the same run. Two ES256 signatures per renewal through the same
/// signer (`ES256Signer`: the sandbox CA's leaf key and `x5c` header), of the advance's own first
/// transaction and renewal-info payloads (every renewal's are within a digit of their size); then
/// the rows the advance left in the ledger, read back with raw SQLite, written by raw SQLite into
/// a copy of the ledger from before the advance in one transaction, as the engine commits the
/// advance (same tables, indexes and triggers, same bytes).
enum AdvanceFloor {
  struct Outcome {
    var seconds: Double
    var cpuSeconds: Double
    var signSeconds: Double
    var sqliteSeconds: Double
    var signatures: Int
    var rows: Int
    var bytes: Int
  }

  /// The file the floor writes into: a copy of the checkpointed ledger in `directory`, taken before the advance.
  static func copyLedger(in directory: URL) throws -> URL {
    let ledger = directory.appendingPathComponent(SQLiteLedgerStore.fileName)
    let copy = directory.appendingPathComponent("floor.sqlite")
    try FileManager.default.copyItem(at: ledger, to: copy)
    return copy
  }

  /// Signs `renewals` × 2 payloads, then writes the rows `directory`'s ledger gained since `copy` into `copy`.
  static func measure(renewals: Int, first renewal: PaymentTransaction?, directory: URL, copy: URL) throws -> Outcome {
    guard let renewal, let transactionJWS = renewal.signedTransaction, let infoJWS = renewal.signedRenewalInfo else {
      throw BenchError.failed("the advance delivered no signed renewal to take the floor's payloads from")
    }
    let payloads = [try CompactJWS(transactionJWS).payloadData, try CompactJWS(infoJWS).payloadData]
    let signer = try BenchStore.authority(in: directory).signer()
    let rows = try LedgerRowDiff(ledger: directory.appendingPathComponent(SQLiteLedgerStore.fileName).path, earlier: copy.path)
    let signatures = renewals * payloads.count
    var signedBytes = 0
    let cpu = Stopwatch.cpuSeconds()
    let signSeconds = try Stopwatch.seconds {
      for index in 0..<signatures { signedBytes &+= try signer.sign(payload: payloads[index % payloads.count]).utf8.count }
    }
    let sqliteSeconds = try Stopwatch.seconds { try rows.write(into: copy.path) }
    let cpuSeconds = Stopwatch.cpuSeconds() - cpu
    guard signedBytes > 0 else { throw BenchError.failed("the floor signed nothing") }
    return Outcome(
      seconds: signSeconds + sqliteSeconds, cpuSeconds: cpuSeconds, signSeconds: signSeconds, sqliteSeconds: sqliteSeconds,
      signatures: signatures, rows: rows.rowCount, bytes: rows.bytes)
  }
}
