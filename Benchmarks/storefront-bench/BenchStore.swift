import CSQLite
import Foundation
import SQLiteLedger
import SandboxSigning
import StoreEngine

/// How a benchmark's store signs transactions and renewal infos: the signer the engine is handed
/// (it builds every payload itself), and the same signing for rows written without the engine.
struct BenchSigning {
  var signer: (any TransactionSigner)?
  var bundleID = BenchStore.bundleID

  /// No signing (the engine-cycle benchmarks): the engine's own work, as the figures before the
  /// rewrite measured it (their string signer built no payload either).
  static var string: BenchSigning { BenchSigning(signer: nil) }

  /// A constant string for every JWS: the engine builds each payload (JSON) and hands it over.
  static var constant: BenchSigning { BenchSigning(signer: ConstantSigner()) }

  /// What `LiveStore` wires: the sandbox CA's ES256 signer (OpenSSL), a three-certificate `x5c`
  /// chain in every header.
  static func sandbox(_ authority: SandboxCertificateAuthority) -> BenchSigning {
    BenchSigning(signer: authority.signer())
  }

  /// ``sandbox(_:)``'s JWS, byte for byte the same shape and size, without the ECDSA step (the slow
  /// part, ~0.7 ms a JWS): the sandbox signer's header (its `x5c` chain), the real payload, and 64
  /// zero bytes as the signature. Never verifiable; for `--quick` set-up only.
  static func sandboxShaped(_ authority: SandboxCertificateAuthority) throws -> BenchSigning {
    let signer = authority.signer()
    guard let header = try signer.sign(payload: Data("{}".utf8)).split(separator: ".").first.map(String.init) else {
      throw BenchError.failed("the sandbox signer wrote a JWS without a header")
    }
    return BenchSigning(signer: ShapedSigner(header: header, environment: signer.environment))
  }

  /// The transaction's JWS as the engine signs it at `date`.
  func transaction(_ transaction: PaymentTransaction, _ date: Date) throws -> String? {
    guard let signer else { return nil }
    let storefrontID = Storefront.lookup(transaction.storefront).map { String($0.id) } ?? "143441"
    return try SignedPayloads.signedTransaction(
      transaction, bundleID: bundleID, signedDate: date, storefrontID: storefrontID, signer: signer)
  }

  /// The renewal info's JWS as the engine signs it at `date`.
  func renewalInfo(_ info: RenewalInfo, _ date: Date) throws -> String? {
    guard let signer else { return nil }
    return try SignedPayloads.signedRenewalInfo(info, signedDate: date, signer: signer)
  }

  private struct ConstantSigner: TransactionSigner {
    let environment = "Sandbox"
    func sign(payload: Data) throws -> String { "signed" }
  }

  private struct ShapedSigner: TransactionSigner {
    let header: String
    let environment: String
    func sign(payload: Data) throws -> String {
      header + "." + payload.base64URLEncoded + "." + Data(repeating: 0, count: 64).base64URLEncoded
    }
  }
}

/// The benchmarks' stores, built in one place.
///
/// ``open(catalog:ledger:signing:passwordHasher:start:firstTransactionID:seed:)`` is the only code in
/// the benchmarks that constructs a `PaymentQueue` (and its `StoreEnvironment`): when the engine's
/// initializer changes, only it changes. ``live(in:catalog:authority:)`` is a store the way
/// `storefront` opens one on a data directory.
enum BenchStore {
  static let bundleID = "com.example.storefront"
  /// The engine's default first id on an empty ledger (`StoreEnvironment`'s), as in a live data directory.
  static let liveFirstTransactionID: UInt64 = 2_000_000_000_000_001

  /// Opens a payment queue on `ledger`: it loads accounts, history and the clock from it.
  static func open(
    catalog: Catalog, ledger: any LedgerStore, signing: BenchSigning, passwordHasher: any PasswordHasher,
    start: Date, firstTransactionID: UInt64 = liveFirstTransactionID, seed: UInt64 = 0
  ) throws(LedgerError) -> PaymentQueue {
    let environment = StoreEnvironment(
      signer: signing.signer, bundleID: signing.bundleID, passwordHasher: passwordHasher, start: start,
      firstTransactionID: firstTransactionID, seed: seed)
    return try PaymentQueue(catalog: catalog, ledger: ledger, environment: environment)
  }

  /// A store as `storefront --data-dir DIRECTORY` opens it (`LiveStore.open`): `SQLiteLedgerStore` on
  /// the directory, the sandbox CA's signer, PBKDF2 passwords. The CA is opened by the caller (once,
  /// with ``authority(in:)``); the session is the engine's default (`.solitary`), not the CLI's
  /// `/proc`-based one, which only matters for `purchasing` transactions.
  struct Live {
    let queue: PaymentQueue
    let ledger: SQLiteLedgerStore
    /// How long `SQLiteLedgerStore(directory:)` took (it checks the file at open), for breakdowns.
    let ledgerOpenSeconds: Double
  }

  /// `wrap` may put a counting ledger between the engine and the SQLite store.
  static func live(
    in directory: URL, catalog: Catalog, authority: SandboxCertificateAuthority,
    wrap: (SQLiteLedgerStore) -> any LedgerStore = { $0 }
  ) throws -> Live {
    let began = Stopwatch.nanoseconds()
    let ledger = try SQLiteLedgerStore(directory: directory)
    let ledgerOpenSeconds = Double(Stopwatch.nanoseconds() - began) / 1e9
    let queue = try open(
      catalog: catalog, ledger: wrap(ledger), signing: .sandbox(authority), passwordHasher: PBKDF2PasswordHasher(),
      start: StoreStates.start)
    return Live(queue: queue, ledger: ledger, ledgerOpenSeconds: ledgerOpenSeconds)
  }

  /// The sandbox CA in `directory/ca`, created on first use (as `LiveStore` does).
  static func authority(in directory: URL) throws -> SandboxCertificateAuthority {
    try SandboxCertificateAuthority.open(
      in: directory.appendingPathComponent("ca", isDirectory: true),
      validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
  }
}

/// The ledger's files on disk.
enum LedgerFiles {
  /// Checkpoints the WAL of the ledger in `directory` into the database file (`wal_checkpoint(TRUNCATE)`
  /// on a connection of its own; the store's connection must be idle) and returns the bytes of the
  /// database file plus its WAL.
  static func checkpointedBytes(in directory: URL) throws -> Int {
    let path = directory.appendingPathComponent(SQLiteLedgerStore.fileName).path
    var db: OpaquePointer?
    defer { sqlite3_close_v2(db) }
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, db != nil else {
      throw BenchError.failed("SQLite could not open \(path) to checkpoint it")
    }
    sqlite3_busy_timeout(db, 5000)
    // A connection knows the file is in WAL mode only once it has read it; before that, a
    // checkpoint is a no-op that reports success (and -1 frames).
    let read = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", nil, nil, nil)
    guard read == SQLITE_OK else {
      throw BenchError.failed("reading \(path) failed: \(String(cString: sqlite3_errstr(read)))")
    }
    var logFrames: Int32 = -1
    var checkpointed: Int32 = -1
    let result = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointed)
    guard result == SQLITE_OK, logFrames == 0, checkpointed == 0 else {
      throw BenchError.failed(
        "checkpointing \(path) failed: \(String(cString: sqlite3_errstr(result))) (\(logFrames) WAL frames, \(checkpointed) checkpointed)")
    }
    return bytes(path) + bytes(path + "-wal")
  }

  /// Bytes of the database file plus its WAL, as they are.
  static func bytes(in directory: URL) -> Int {
    let path = directory.appendingPathComponent(SQLiteLedgerStore.fileName).path
    return bytes(path) + bytes(path + "-wal")
  }

  private static func bytes(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
  }
}
