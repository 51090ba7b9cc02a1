import Foundation

/// Everything the store machine needs from the outside world, injected so that tests are
/// deterministic.
///
/// The machine never reads the wall clock, never makes ids up on its own and never touches the
/// disk: time starts at ``start`` and moves only through ``StoreCommand/advance(to:)``; storage is
/// the shell's (``PaymentQueue``).
public struct StoreEnvironment: Sendable {
  /// Signs transactions and renewal infos when they become purchased, restored or renewed; nil
  /// leaves them unsigned. The payloads themselves are built by the engine (``SignedPayloads``).
  public var signer: (any TransactionSigner)?
  /// The app's bundle id, for signed transactions.
  public var bundleID: String
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
  /// Checks promotional-offer signatures; nil refuses every signed offer (`invalidSignature`), as
  /// no key was issued.
  public var offerSignatureVerifier: (any OfferSignatureVerifier)?

  public static let defaultBundleID = "com.example.storefront"

  public init(
    signer: (any TransactionSigner)? = nil, bundleID: String = StoreEnvironment.defaultBundleID,
    passwordHasher: any PasswordHasher, start: Date, firstTransactionID: UInt64 = 2_000_000_000_000_001,
    seed: UInt64 = 0, session: AppSession = .solitary, offerSignatureVerifier: (any OfferSignatureVerifier)? = nil
  ) {
    self.signer = signer
    self.bundleID = bundleID
    self.passwordHasher = passwordHasher
    self.start = start
    self.firstTransactionID = firstTransactionID
    self.seed = seed
    self.session = session
    self.offerSignatureVerifier = offerSignatureVerifier
  }
}

/// A small seeded generator (SplitMix64): same seed, same sequence, on every platform.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
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
