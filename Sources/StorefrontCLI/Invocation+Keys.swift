import Foundation
import SharedLedgerSecrets
import StoreEngine
import StorefrontLive
import StoreServer

extension Invocation {
  /// The API keys of the data directory, kept in the shared database on a PostgreSQL ledger; a
  /// missing or unusable key-encryption key is a configuration error (78).
  func keyStore() throws(CLIFailure) -> APIKeyStore {
    let directory = URL(fileURLWithPath: global.dataDirectory(environment: environment), isDirectory: true)
    do {
      return APIKeyStore(directory: directory, storage: try SharedSecretStorage.resolve(global, environment: environment))
    } catch let error as SharedSecretStorage.Failure {
      throw CLIFailure(error, otherwise: .configuration)
    } catch {
      let ledger = (try? LedgerLocation.resolve(global, environment: environment))?.displayName ?? "the shared ledger"
      throw CLIFailure(keys: .unreadable(path: ledger, reason: "\(error)"))
    }
  }

  /// `--seed` makes key ids and the issuer id repeat (tests); otherwise they come from the system generator.
  var keyIdentifierGenerator: CommandRandom { CommandRandom(seed: global.seed) }
}

/// The seeded generator when `--seed` was given, the system's otherwise.
struct CommandRandom: RandomNumberGenerator {
  private var seeded: SplitMix64?
  private var system = SystemRandomNumberGenerator()

  init(seed: UInt64?) { seeded = seed.map { SplitMix64(seed: $0) } }

  mutating func next() -> UInt64 {
    if seeded != nil { return seeded?.next() ?? 0 }
    return system.next()
  }
}
