import Foundation

/// Everything the engine needs from the outside world, injected so that tests are deterministic.
///
/// The engine never reads the wall clock, never makes ids up on its own and never touches the
/// disk: time starts at ``start`` and moves only through ``PaymentQueue/advance(by:)``.
public struct StoreEnvironment {
  /// Durable storage; the engine commits every change here before announcing it.
  public var ledger: any LedgerStore
  /// Produces `signedTransaction` for a purchased, restored or renewed transaction at the given
  /// (virtual) signing date, or nil to leave it unsigned. The composition root wires the OpenSSL
  /// signer; tests inject a deterministic closure.
  public var signTransaction: (PaymentTransaction, Date) throws -> String?
  /// Produces `signedRenewalInfo` for an auto-renewable subscription's transaction.
  public var signRenewalInfo: (RenewalInfo, Date) throws -> String?
  /// Hashes and checks sandbox passwords.
  public var passwordHasher: any PasswordHasher
  /// The virtual clock's starting point when the ledger holds no later time.
  public var start: Date
  /// The first transaction id when the ledger is empty; later ids continue after the largest one.
  public var firstTransactionID: UInt64
  /// Seed for the engine's random choices (e.g. `fail purchase ... chance=0.5`).
  public var seed: UInt64
  /// Who this process is and which other processes still run: decides which abandoned purchases a
  /// launch takes over. Default ``AppSession/solitary`` (no other process shares the ledger).
  public var session: AppSession

  public init(
    ledger: any LedgerStore, signTransaction: @escaping (PaymentTransaction, Date) throws -> String? = { _, _ in nil },
    signRenewalInfo: @escaping (RenewalInfo, Date) throws -> String? = { _, _ in nil },
    passwordHasher: any PasswordHasher, start: Date, firstTransactionID: UInt64 = 2_000_000_000_000_001,
    seed: UInt64 = 0, session: AppSession = .solitary
  ) {
    self.ledger = ledger
    self.signTransaction = signTransaction
    self.signRenewalInfo = signRenewalInfo
    self.passwordHasher = passwordHasher
    self.start = start
    self.firstTransactionID = firstTransactionID
    self.seed = seed
    self.session = session
  }
}

/// A small seeded generator (SplitMix64): same seed, same sequence, on every platform.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
