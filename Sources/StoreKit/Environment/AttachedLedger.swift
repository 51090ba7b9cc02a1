import Foundation
internal import PostgreSQLLedger
internal import StorefrontLive
internal import SandboxSigning
internal import SharedLedgerSecrets
internal import StoreEngine

/// The ledger of a store on a data directory: its own SQLite file, or for an attached app on a
/// shared ledger (`STOREFRONT_LEDGER`) the team's PostgreSQL database, whose CA every machine signs
/// with and whose session locks tell other machines which process still owns a sheet.
struct AttachedLedger {
  var ledger: any LedgerStore
  /// What a waiting sheet blocks on between looks (attached apps only).
  var watch: LedgerWatch?
  var start: Date
  var session: AppSession
  /// Where the CA's keys are kept when not in the data directory's `ca/`.
  var storage: (any SecretStorage)?

  /// Opens the ledger `configuration` names under `directory`, checks that this app may attach to
  /// it, and takes a storefront's catalog when the app named none.
  static func open(_ configuration: inout StoreConfiguration, directory: URL) throws(StoreOpenError) -> AttachedLedger {
    let shared = configuration.attachment?.ledger
    let name = shared.map { PostgreSQLAddress($0).description } ?? directory.path
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      // The backend is chosen where the CLI's is (StorefrontLive): `STOREFRONT_LEDGER`, else the directory.
      let location = try LedgerLocation.resolve(
        ledger: nil, dataDirectory: directory.path, environment: shared.map { ["STOREFRONT_LEDGER": $0] } ?? [:])
      var storage: (any SecretStorage)?
      if case .postgresql(let address) = location {
        let sealer: SecretSealer
        do throws(SharedSecretStorage.Failure) {
          sealer = try SharedSecretStorage.sealer(keyFile: nil, environment: configuration.attachment?.environment ?? [:], ledger: address.description)
        } catch {
          throw StoreOpenError.ledger(address.description, error.description)
        }
        storage = SharedSecretStorage(table: try PostgreSQLSecretTable(address: address), sealer: sealer)
      }
      let store = try location.open()
      // Only an attached app answers to other processes: an `SKTestSession` store is alone.
      let session = configuration.attachment == nil && !location.isShared ? AppSession.solitary : try location.session()
      var opened = AttachedLedger(
        ledger: store, watch: configuration.attachment == nil ? nil : LedgerWatch(try location.watcher(ignoring: store)),
        start: Date(), session: session, storage: storage)
      let clock = try store.virtualClock()
      // The clock belongs to the ledger (DECISIONS §32): continue from it, or record where it starts.
      if let clock {
        opened.start = clock
      } else {
        opened.start = configuration.start
        try opened.ledger.commit([.setClock(opened.start)])
      }
      if configuration.attachment != nil {
        let session = opened.session
        let attached = DeviceValues.processes(in: try opened.ledger.load().deviceValues).filter { $0.isRunning(askedBy: session) }
        // One process per app on a device: a second would answer the first one's sheets and queue.
        if let other = attached.first(where: { $0.role == .app && $0.bundleID == configuration.bundleID && $0.session != opened.session.id }) {
          throw StoreOpenError.bundleInUse(name, other)
        }
        if configuration.catalogPath == nil { try takeStorefrontCatalog(from: attached, into: &configuration) }
      }
      return opened
    } catch let error as StoreOpenError {
      throw error
    } catch LedgerError.newerSchema(let path, let found, let supported) where configuration.attachment != nil {
      throw .ledger(
        name,
        "the ledger '\(path)' has schema version \(found), written by a newer storefront than this app's StoreKit library (it reads \(supported)). Update the storefront package your app depends on to the storefront's version (`swift package update`), or set \(shared == nil ? "STOREFRONT_DATA_DIR to another directory" : "STOREFRONT_LEDGER to another database"). Nothing was written")
    } catch LedgerError.cannotOpen(let path, let reason) where path == "$STOREFRONT_LEDGER" {
      throw .ledger(path, reason)
    } catch let error as LedgerError {
      throw .ledger(name, error.description)
    } catch {
      throw .ledger(name, String(describing: error))
    }
  }

  /// An attached app without a `.storekit` file of its own sells what a storefront on its data
  /// directory sells (the newest one's file; its built-in catalog when it names none).
  static func takeStorefrontCatalog(from attached: [AttachedProcess], into configuration: inout StoreConfiguration) throws {
    let storefronts = attached.filter { $0.role == .storefront }
    guard let newest = storefronts.last else { return }
    let answersItself = configuration.catalog.settings.disableDialogs
    configuration.attachment?.catalogFromStorefront = true
    if let path = newest.catalog {
      configuration.catalog = try CatalogLoader.load(path: path)
      configuration.catalogPath = path
    } else {
      configuration.catalog = try CatalogDecoder().decode(Data(DefaultCatalog.text.utf8), path: DefaultCatalog.displayPath)
    }
    configuration.catalog.settings.disableDialogs = answersItself
  }

}

/// What an attached app's follower and waiting sheets block on between looks at the ledger: the
/// process's ``LedgerWatcher`` (inotify or `LISTEN`, on a connection of its own), plus the liveness
/// rule: ``wait(lookingAnyway:)`` says whether to look, because another process committed or
/// ``StoreKitEnvironment/livenessInterval`` passed without a look. Waiting costs no CPU until
/// something is committed.
final class LedgerWatch: @unchecked Sendable {
  // Used by one waiter thread at a time (the environment starts the next only after this one ended).
  private let watcher: LedgerWatcher
  private var lastLook = ContinuousClock.now
  /// How long a follower with no sheet open blocks at most (then it wakes without looking).
  static let quietInterval: TimeInterval = 5

  init(_ watcher: LedgerWatcher) {
    self.watcher = watcher
  }

  /// Blocks until another process may have committed, or (`lookingAnyway`) for up to the liveness
  /// interval; without it, up to ``quietInterval`` before checking again that the store is current.
  func wait(lookingAnyway: Bool) -> Bool {
    let liveness = Duration.milliseconds(Int((lookingAnyway ? StoreKitEnvironment.livenessInterval : Self.quietInterval) * 1000))
    let left = liveness - (ContinuousClock.now - lastLook)
    let committed = watcher.wait(upTo: max(left, .milliseconds(1)))
    guard committed || ContinuousClock.now - lastLook >= liveness else { return false }
    lastLook = ContinuousClock.now
    return true
  }
}
