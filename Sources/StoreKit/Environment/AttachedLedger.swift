import Foundation
internal import PostgreSQLLedger
#if canImport(Glibc)
  import Glibc
#endif
internal import SQLiteLedger
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
  var sessionLock: AnyObject?

  /// Opens the ledger `configuration` names under `directory`, checks that this app may attach to
  /// it, and takes a storefront's catalog when the app named none.
  static func open(_ configuration: inout StoreConfiguration, directory: URL) throws(StoreOpenError) -> AttachedLedger {
    let shared = configuration.attachment?.ledger
    let name = shared.map { PostgreSQLAddress($0).description } ?? directory.path
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      var opened: AttachedLedger
      let clock: Date?
      if let uri = shared {
        guard PostgreSQLAddress.isPostgreSQL(uri) else {
          throw StoreOpenError.ledger(
            "$STOREFRONT_LEDGER", "it is not a postgresql:// URI; set it to postgresql://user@host/database, or unset it to use the data directory's ledger")
        }
        let address = PostgreSQLAddress(uri)
        let sealer: SecretSealer
        do throws(SharedSecretStorage.Failure) {
          sealer = try SharedSecretStorage.sealer(keyFile: nil, environment: configuration.attachment?.environment ?? [:], ledger: address.description)
        } catch {
          throw StoreOpenError.ledger(address.description, error.description)
        }
        let store = try PostgreSQLLedgerStore(address: address)
        let lock = try PostgreSQLSessionLock.acquire(address: address, id: ProcessSession().current().id)
        opened = AttachedLedger(
          ledger: store, watch: configuration.attachment == nil ? nil : try LedgerWatch(listening: address, ignoring: store),
          start: Date(), session: lock.session,
          storage: SharedSecretStorage(table: try PostgreSQLSecretTable(address: address), sealer: sealer), sessionLock: lock)
        clock = try store.virtualClock()
      } else {
        let store = try SQLiteLedgerStore(directory: directory)
        let session = configuration.attachment == nil ? AppSession.solitary : ProcessSession().current()
        opened = AttachedLedger(
          ledger: store, watch: configuration.attachment == nil ? nil : try LedgerWatch(watching: directory), start: Date(),
          session: session, storage: nil, sessionLock: nil)
        clock = try store.virtualClock()
      }
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

/// What an attached app's waiting sheet blocks on between looks at the ledger, on a connection of
/// its own (so the waiter needs no lock while it waits): on SQLite inotify on the data directory
/// (a commit writes the WAL file) confirmed by `data_version`, falling back to reading
/// `data_version` every 20 ms where inotify is not available; on PostgreSQL `LISTEN`. ``wait()``
/// says whether to look: another process committed, or ``StoreKitEnvironment/livenessInterval``
/// passed without a look. Waiting costs no CPU until something is committed.
final class LedgerWatch: @unchecked Sendable {
  // Used by one waiter thread at a time (the environment starts the next only after this one ended).
  private let sqlite: SQLiteLedgerStore?
  private let listener: PostgreSQLChangeListener?
  /// The inotify descriptor watching the data directory's writes; -1 without one.
  private let notify: Int32
  private var version: Int64?
  private var lastLook = ContinuousClock.now
  /// Looks left at `data_version` after the last write seen.
  private var hotRounds = 0
  /// The waits (ms) of those looks: the commit is visible microseconds after its last write.
  static let hotPolls: [Int32] = [1, 2, 5, 10, 20]
  static var hotRounds: Int { hotPolls.count }
  /// How long a follower with no sheet open blocks at most (then it wakes without looking).
  static let quietInterval: TimeInterval = 5

  init(watching directory: URL) throws(LedgerError) {
    let watcher = try SQLiteLedgerStore(directory: directory, options: .init(readOnly: true, checkAtOpen: false))
    sqlite = watcher
    listener = nil
    version = try? watcher.dataVersion()
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    if descriptor >= 0, inotify_add_watch(descriptor, directory.path, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) < 0 {
      close(descriptor)
      notify = -1
    } else {
      notify = descriptor
    }
  }

  init(listening address: PostgreSQLAddress, ignoring store: PostgreSQLLedgerStore) throws(LedgerError) {
    sqlite = nil
    notify = -1
    listener = try PostgreSQLChangeListener(address: address, ignoring: store)
  }

  deinit {
    sqlite?.close()
    listener?.interrupt()
    if notify >= 0 { close(notify) }
  }

  /// Blocks until another process may have committed, or (`lookingAnyway`) for up to the liveness
  /// interval; without it, up to ``quietInterval`` before checking again that the store is current.
  func wait(lookingAnyway: Bool) -> Bool {
    let liveness = Duration.milliseconds(Int((lookingAnyway ? StoreKitEnvironment.livenessInterval : Self.quietInterval) * 1000))
    if let listener {
      // A notification can be missed while reconnecting: the time-out is a look too.
      _ = try? listener.wait(timeout: liveness)
      return true
    }
    if notify >= 0 {
      // The WAL's writes come before the commit is visible (the shared-memory index, which sends
      // no event): after a write, look every poll interval for a few rounds before blocking again.
      let left = liveness - (ContinuousClock.now - lastLook)
      let blocking = max(0, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
      var descriptor = pollfd(fd: notify, events: Int16(POLLIN), revents: 0)
      let timeout = hotRounds > 0 ? Self.hotPolls[Self.hotPolls.count - hotRounds] : blocking
      hotRounds = max(0, hotRounds - 1)
      if poll(&descriptor, 1, min(timeout, blocking)) > 0 {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(notify, $0.baseAddress, $0.count) }) > 0 {}
        hotRounds = Self.hotRounds
      }
    } else {
      Thread.sleep(forTimeInterval: StoreKitEnvironment.sheetPollInterval)
    }
    let now = try? sqlite?.dataVersion()
    let changed = now != version
    version = now
    guard changed || ContinuousClock.now - lastLook >= liveness else { return false }
    lastLook = ContinuousClock.now
    return true
  }
}
