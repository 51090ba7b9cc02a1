import Foundation
import SQLiteLedger
import SandboxSigning
import SharedLedgerSecrets
import StoreEngine
import StorefrontLive

/// The real store for a data directory: its ledger (SQLite in the directory, or the shared PostgreSQL
/// ledger of `--ledger`), the sandbox CA's signer, PBKDF2 passwords, and this process's session (so
/// a launch leaves other running storefronts' sheets alone).
struct LiveStore {
  /// The start of virtual time for headless runs on a fresh ledger: 2026-01-01T00:00:00Z.
  static let scenarioEpoch = Date(timeIntervalSince1970: 1_767_225_600)
  static let defaultBundleID = StoreEnvironment.defaultBundleID

  let queue: PaymentQueue
  let ledger: any OpenLedger
  /// Where the ledger is.
  let location: LedgerLocation
  /// The data directory (the CA, keys and fault plans; the ledger too unless it is shared).
  let directory: URL
  let authority: SandboxCertificateAuthority
  /// The promotional-offer key the storefront issued (B51): signs `buy … signed`, checks payments.
  let offerKey: PromotionalOfferKey
  /// The shared ledger's credential table (the CA, API keys, the shared secret); nil for a data directory.
  let secrets: (any SecretStorage)?
  let warnings: [String]

  static func open(
    catalog: Catalog, global: GlobalOptions, environment: [String: String], clock: ClockChoice,
    signingEnvironment: String = "Sandbox", regenerateCA: Bool = false, ledgerConnection: LedgerConnectionWatch = .quiet
  ) throws(CLIFailure) -> LiveStore {
    let directory = URL(fileURLWithPath: global.dataDirectory(environment: environment), isDirectory: true)
    let location: LedgerLocation
    let ledger: any OpenLedger
    let session: AppSession
    let startDate: Date
    do throws(LedgerError) {
      location = try LedgerLocation.resolve(global, environment: environment)
    } catch {
      throw CLIFailure(error)
    }
    if case .postgresql(let address) = location {
      // A missing key-encryption key is the configuration's fault: said before waiting for the database.
      do throws(SharedSecretStorage.Failure) {
        _ = try SharedSecretStorage.sealer(global, environment: environment, ledger: address.description)
      } catch {
        throw CLIFailure(error.description, .configuration)
      }
    }
    do {
      let watch = ledgerConnection.resolved(name: location.displayName)
      ledger = try location.open(reconnect: watch.policy, onConnectionChange: watch.onChange, waitsAtOpen: watch.waitsAtOpen)
      session = try location.session(onProblem: watch.onProblem)
      // The clock belongs to the ledger: a fresh one records where it starts at once, so that every
      // front end opened after this one continues from the same moment.
      let ledgerClock = try ledger.virtualClock()
      startDate = try clock.start(ledgerClock: ledgerClock, ledgerName: location.displayName)
      if ledgerClock == nil { try ledger.commit([.setClock(startDate)]) }
      // Retention Messaging's configuration lives in the ledger: an earlier build's file is taken in once.
      if let message = RetentionMessagingStore(ledger: ledger).importLegacyFile(from: directory).message {
        FileHandle.standardError.write(Data((message + "\n").utf8))
      }
    } catch let error as LedgerError {
      throw CLIFailure(error)
    } catch let failure as CLIFailure {
      throw failure
    } catch {
      throw CLIFailure(error, otherwise: .software)
    }
    let authority: SandboxCertificateAuthority
    let offerKey: PromotionalOfferKey
    let storage: SharedSecretStorage?
    do {
      // On a shared ledger the chain is the database's, so every machine signs with the same root.
      storage = try SharedSecretStorage.resolve(global, environment: environment)
      authority = try SandboxCertificateAuthority.open(
        in: directory.appendingPathComponent("ca", isDirectory: true), storage: storage,
        validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()), regenerate: regenerateCA)
      offerKey = try PromotionalOfferKey.open(in: directory.appendingPathComponent("ca", isDirectory: true), storage: storage)
    } catch {
      throw CLIFailure(error, otherwise: .cannotCreate)
    }
    let signer: any TransactionSigner
    if signingEnvironment == "Xcode" {
      do {
        signer = try XcodeSigner(validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
      } catch {
        throw CLIFailure("could not create the Xcode signing certificate: \(error)", .software)
      }
    } else {
      signer = authority.signer(environment: signingEnvironment)
    }
    let bundleID = global.bundleID ?? defaultBundleID
    // The composition root only hands the signer over; the engine builds every payload itself.
    let storeEnvironment = StoreEnvironment(
      signer: signer, bundleID: bundleID, passwordHasher: PBKDF2PasswordHasher(), start: startDate,
      seed: global.seed ?? 0, session: session, offerSignatureVerifier: offerKey)
    let queue: PaymentQueue
    do {
      queue = try PaymentQueue(catalog: catalog, ledger: ledger, environment: storeEnvironment)
      if let storefront = global.storefront { try queue.set(.storefront(storefront)) }
      if let locale = global.locale { try queue.set(.locale(locale)) }
    } catch {
      throw CLIFailure(error, otherwise: .software)
    }
    return LiveStore(
      queue: queue, ledger: ledger, location: location, directory: directory, authority: authority, offerKey: offerKey,
      secrets: storage, warnings: ledger.warnings)
  }
}

extension LiveStore {
  /// Retention Messaging's configuration in this store's ledger, over a connection of its own (the
  /// API's thread and a performance test's threads use it, never the queue's connection).
  func retentionMessaging() throws(CLIFailure) -> RetentionMessagingStore {
    do throws(LedgerError) {
      return RetentionMessagingStore(ledger: try location.open())
    } catch {
      throw CLIFailure(error)
    }
  }
}
