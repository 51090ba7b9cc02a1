internal import AppReceipt
import Foundation
internal import SQLiteLedger
internal import SandboxSigning
package import StoreEngine
internal import StoreScenario

/// One opened store: the engine's payment queue on its ledger, the sandbox CA that signs its
/// transactions, and the StoreKit 2 view that decides where each transaction goes.
///
/// Touched only under ``StoreKitEnvironment``'s lock.
package final class OpenStore {
  package let configuration: StoreConfiguration
  package let queue: PaymentQueue
  let authority: SandboxCertificateAuthority
  /// The promotional-offer key beside the CA (`ca/promotional-offer-key.pem`, key id `STOREFRONT`):
  /// the developer's server signs offers with it, and the store checks them with it, as the CLI does.
  let offerKey: PromotionalOfferKey
  /// Signs what the store signs outside the engine (the app transaction).
  let signer: any TransactionSigner
  /// Where `Bundle.main.appStoreReceiptURL` points: the receipt file of issue 15.
  let receiptURL: URL
  /// Which `purchase()` calls wait, so their transactions go back to them and not to `updates`.
  var view = StoreKit2View()
  /// The app's promoted-purchase settings (`SKProductStorePromotionController`), for this store only.
  var storePromotion = StorePromotion()
  /// The price-increase consent sheets the app was shown or held back, for this store only.
  var priceConsent = PriceConsentSheets()
  /// Events of the step being performed, in order (filled by the bus, drained after the step).
  let collector = EventCollector()
  /// What a waiting sheet blocks on between looks at the ledger; nil for an in-memory store.
  let watch: LedgerWatch?
  private var subscription: Subscription?

  /// Opens the store `configuration` describes; the app is launched (unfinished transactions are
  /// delivered again) by the caller once it listens.
  package init(_ configuration: StoreConfiguration) throws(StoreOpenError) {
    var configuration = configuration
    let caDirectory: URL
    let ledger: any LedgerStore
    let start: Date
    var session = AppSession.solitary
    var storage: (any SecretStorage)?
    if let directory = configuration.dataDirectory {
      caDirectory = directory.appendingPathComponent("ca", isDirectory: true)
      // Each attached app has its own receipt, as each app on a device has.
      let receipts = directory.appendingPathComponent("receipts", isDirectory: true)
      receiptURL =
        configuration.attachment == nil
        ? receipts.appendingPathComponent("receipt")
        : receipts.appendingPathComponent(Self.fileName(for: configuration.bundleID), isDirectory: true).appendingPathComponent("receipt")
      let opened = try AttachedLedger.open(&configuration, directory: directory)
      ledger = opened.ledger
      watch = opened.watch
      start = opened.start
      session = opened.session
      storage = opened.storage
    } else {
      // One CA for every in-memory store of this user: making a chain costs more than a session.
      let shared = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-storekit-\(getuid())", isDirectory: true)
      caDirectory = shared.appendingPathComponent("ca", isDirectory: true)
      receiptURL = shared.appendingPathComponent("receipts-\(getpid())", isDirectory: true).appendingPathComponent("receipt")
      ledger = InMemoryLedgerStore()
      watch = nil
      start = configuration.start
    }
    do {
      // On a shared ledger the chain is the database's, so the app signs as the storefronts do.
      if configuration.dataDirectory == nil {
        (authority, offerKey) = try Self.sharedAuthority(in: caDirectory)
      } else {
        authority = try SandboxCertificateAuthority.open(
          in: caDirectory, storage: storage, validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
        offerKey = try PromotionalOfferKey.open(in: caDirectory, storage: storage)
      }
    } catch {
      throw .certificateAuthority(storage?.location ?? caDirectory.path, String(describing: error))
    }
    signer = authority.signer(environment: configuration.signingEnvironment)
    self.configuration = configuration
    let environment = StoreEnvironment(
      signer: signer, bundleID: configuration.bundleID,
      passwordHasher: PBKDF2PasswordHasher(), start: start, session: session, offerSignatureVerifier: offerKey)
    do {
      queue = try PaymentQueue(catalog: configuration.catalog, ledger: ledger, environment: environment)
      // An attached app buys as whoever the device (the storefront) is signed in as; with nobody
      // signed in and a storefront showing sheets, its first purchase asks the storefront to sign in.
      let keepsDevicesAccount = configuration.attachment != nil && queue.currentAccount != nil
      let asksTheDevice =
        configuration.attachment != nil && queue.currentAccount == nil
        && queue.attachedProcesses.contains { $0.role == .storefront && $0.showsSheets }
      if !keepsDevicesAccount, !asksTheDevice, queue.currentAccount != configuration.account { try queue.signIn(configuration.account) }
    } catch {
      throw .engine(String(describing: error))
    }
    let collector = self.collector
    subscription = queue.bus.subscribe(StoreEvent.self) { collector.append($0) }
  }

  deinit { subscription?.cancel() }

  /// The in-memory stores' one CA and offer key, opened once per process: reading and parsing their
  /// keys was most of what a fresh `SKTestSession` cost (issue 34's `storekit_session_vs_decode`).
  private static func sharedAuthority(in directory: URL) throws -> (SandboxCertificateAuthority, PromotionalOfferKey) {
    try sharedAuthorityLock.withLock {
      if let opened = sharedAuthorities[directory.path] { return opened }
      let authority = try SandboxCertificateAuthority.open(
        in: directory, validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
      let opened = (authority, try PromotionalOfferKey.open(in: directory))
      sharedAuthorities[directory.path] = opened
      return opened
    }
  }

  private static let sharedAuthorityLock = NSLock()
  private nonisolated(unsafe) static var sharedAuthorities: [String: (SandboxCertificateAuthority, PromotionalOfferKey)] = [:]

  /// The verifier for this store's JWS: its CA's root, its bundle id, at the virtual clock.
  func verifier() -> JWSVerifier {
    let now = queue.now
    return authority.verifier(bundleID: configuration.bundleID, environment: configuration.signingEnvironment, now: { now })
  }

  /// The root certificate (DER) that verifies this store's JWS, for Apple's `SignedDataVerifier`.
  package func rootCertificate() throws -> Data {
    try authority.exportRoot(format: .der)
  }

  /// A bundle id as one path component (it may hold anything an environment variable can).
  static func fileName(for bundleID: String) -> String {
    let safe = bundleID.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "." || $0 == "-" ? Character($0) : "_" }
    let name = String(safe)
    return name.isEmpty || name.hasPrefix(".") ? "_" + name : name
  }

  /// Writes the signed-in account's app receipt where ``receiptURL`` points; returns that URL.
  @discardableResult
  func writeReceipt() throws -> URL {
    let now = queue.now
    let builder = AppReceiptBuilder(
      ledger: queue.ledger, authority: authority, bundleID: configuration.bundleID, environment: "Sandbox", now: { now })
    let account = queue.currentAccount ?? configuration.account
    let data: Data
    if configuration.attachment != nil {
      // Only this app's purchases: another attached app's are in its own receipt.
      let history = try queue.history(account: account).filter { $0.appBundleID == nil || $0.appBundleID == configuration.bundleID }
      data = try builder.sign(builder.contents(account: account, history: history))
    } else {
      data = try builder.receipt(account: account)
    }
    try FileManager.default.createDirectory(at: receiptURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: receiptURL, options: .atomic)
    return receiptURL
  }
}

/// Why a store could not be opened.
package enum StoreOpenError: Error, Sendable, CustomStringConvertible {
  case ledger(String, String)
  case certificateAuthority(String, String)
  case engine(String)
  /// Another running process is attached to the data directory under the same bundle id.
  case bundleInUse(String, AttachedProcess)

  package var description: String {
    switch self {
    case .bundleInUse(let path, let other):
      "another process (pid \(other.pid) on \(other.host), since \(other.since.formatted(.iso8601))) is attached to the storefront data directory \(path) as \(other.bundleID); an app runs once on a device: quit that one, or give this one its own STOREFRONT_BUNDLE_ID"
    case .ledger(let path, let reason): "could not open the storefront ledger in \(path): \(reason)"
    case .certificateAuthority(let path, let reason): "could not open the sandbox certificate authority in \(path): \(reason)"
    case .engine(let reason): "could not open the store: \(reason)"
    }
  }
}

/// The events the bus posts during one step, kept for the environment to translate after it.
final class EventCollector: @unchecked Sendable {
  // Appended to only by the bus's immediate handler during a step, which runs under the
  // environment's lock; drained under the same lock.
  private var events: [StoreEvent] = []
  func append(_ event: StoreEvent) { events.append(event) }
  func drain() -> [StoreEvent] {
    defer { events.removeAll(keepingCapacity: true) }
    return events
  }
}
