import Foundation
internal import StoreEngine
internal import StoreScenario

/// An attached app (no `SKTestSession`, DECISIONS §37, §38): it registers itself in the store's
/// device values, and a purchase sheet it opens waits for a storefront TUI on the same store to
/// answer it. The app's own engine carries the answer out (its session owns the sheet, its bundle
/// id is signed in), so the storefront is only the device's UI.
extension StoreKitEnvironment {
  /// How often the follower reads SQLite's `data_version` where inotify is not available: the
  /// TUI's own wake interval, so following costs no more than a storefront watching the same ledger.
  static let sheetPollInterval: TimeInterval = 0.02
  /// How often a sheet nobody answers reads the ledger even when nothing was committed, so its
  /// deadline is kept; a sheet a storefront shows waits for that storefront's commit instead.
  static let livenessInterval: TimeInterval = 0.5

  /// Registers the app after its store opened (lock held); its entry goes at exit.
  func register(_ store: OpenStore) {
    guard store.configuration.attachment != nil else { return }
    let process = AttachedProcess(
      session: store.queue.machine.environment.session.id, role: .app, bundleID: store.configuration.bundleID,
      since: Date(), showsSheets: false)
    appLog = DeviceValues.AppLog(bundleID: store.configuration.bundleID)
    do {
      // Entries of processes that ended without removing theirs (a SIGKILL) go, with their logs.
      try store.queue.tell(
        [DeviceValues.leftBehind(in: store.queue.deviceValues, isRunning: store.queue.isRunning), .register(process)].compactMap { $0 })
    } catch {
      report("registering with the storefront data directory \(store.configuration.dataDirectory?.path ?? "") failed: \(describe(error))")
      return
    }
    attachedSession = process.session
    atexit { StoreKitEnvironment.shared.unregisterAtExit() }
  }

  /// Removes the app's entry (at exit; a killed app's entry is told dead by its session).
  func unregisterAtExit() {
    locked {
      guard let session = attachedSession, let store = currentStore else { return }
      try? store.queue.tell(.unregister(session: session))
      attachedSession = nil
    }
  }

  /// Before a step of an attached app (lock held): what the newest storefront changed in its
  /// Settings pane since the last step applies to this app too, as on a device.
  func followDeviceSettings(_ store: OpenStore) {
    guard store.configuration.attachment != nil,
      let settings = store.queue.attachedProcesses.last(where: { $0.role == .storefront && $0.settings != nil })?.settings,
      settings != followedSettings
    else { return }
    for change in settings.changes(since: followedSettings, in: store.queue.controls) {
      do { try store.queue.perform(.setControl(change)) } catch { report("following the storefront's setting failed: \(describe(error))") }
    }
    followedSettings = settings
    deliver(store.collector.drain(), from: store)
  }

  /// The callbacks' lines as the storefront's Log pane shows its own app's.
  static let logFormatter = EventFormatter(json: false)

  /// Adds what an attached app just heard to its log in the ledger, which a storefront's Log pane
  /// shows (lock held). A log that cannot be written is not worth failing the step for.
  func writeAppLog(_ lines: [String], in store: OpenStore) {
    guard let session = attachedSession else { return }
    appLog = appLog.appending(lines)
    try? store.queue.tell(.log(appLog, session: session))
  }

  /// An attached app asked for products its store does not sell: they are invalid identifiers, as
  /// the App Store answers, and one stderr line says which catalog was asked (once per set of ids),
  /// since the usual cause is a storefront started on another `.storekit` file than the app expects.
  func tellOfUnsoldProducts(_ invalid: [String], in store: OpenStore) {
    guard let attachment = store.configuration.attachment else { return }
    let key = invalid.sorted().joined(separator: ",")
    guard !toldUnsold.contains(key) else { return }
    toldUnsold.insert(key)
    let catalog = store.configuration.catalogPath.map { "'\($0)'" } ?? "its built-in catalog"
    let directory = store.configuration.dataDirectory?.path ?? ""
    let source =
      if attachment.catalogFromStorefront {
        "the storefront on \(directory) sells \(catalog)"
      } else if store.configuration.catalogPath != nil {
        "this app's STOREKIT_CONFIGURATION is \(catalog)"
      } else {
        "no storefront runs on \(directory) and STOREKIT_CONFIGURATION is not set, so it sells nothing"
      }
    FileHandle.standardError.write(Data((
      "StoreKit: \(invalid.sorted().joined(separator: ", ")) \(invalid.count == 1 ? "is" : "are") not in the store's catalog (\(source)); "
        + "answered as invalid product identifiers, as the App Store answers. Start the storefront with the app's .storekit file, "
        + "or set STOREKIT_CONFIGURATION\n").utf8))
  }

  /// After a step (lock held): an open purchase sheet of an attached app is answered by a
  /// storefront's answer, by the app itself where nobody shows sheets, or waits, bounded when no
  /// storefront is attached.
  func attendSheet(_ store: OpenStore) {
    guard let attachment = store.configuration.attachment else { return }
    attendCodeSheet(store)
    let id: StoreEngine.PaymentTransaction.ID
    let product: String
    var signingIn = false
    switch store.queue.prompt {
    case .confirm(let sheet, let productID, _, let owned, let price, let terms)?:
      id = sheet
      product = productID.rawValue
      // The storefront shows what this engine quoted: an offer's price, the terms, Ask to Buy.
      if store.queue.sheetQuotes[sheet] == nil {
        let quote = DeviceValues.SheetQuote(
          price: price.amount, alreadyOwned: owned, terms: terms.map { $0.map(\.amount) }, asksToBuy: store.queue.controls.askToBuy)
        do { try store.queue.tell(.quote(sheet, quote)) } catch {
          report("publishing the purchase sheet of transaction \(sheet) failed: \(describe(error))")
        }
      }
    case .signIn(.purchase(let sheet))?:
      // Signed out: the device signs in first, in the storefront's sign-in sheet.
      id = sheet
      product = (try? store.queue.transaction(sheet))??.productID.rawValue ?? "a product"
      signingIn = true
      if let account = store.queue.sheetSignIns[sheet] {
        sheetDeadline = nil
        do { try perform(.adoptAccount(account)) } catch { report("signing in as the device's \(account) failed: \(describe(error))") }
        try? store.queue.tell(.signedIn(sheet, account: nil))
        return
      }
    case .signIn(.restore)?:
      // A restore asks nobody here: the app takes the account it would buy as.
      do { try perform(.signIn(store.configuration.account, password: nil)) } catch { report("signing in to restore failed: \(describe(error))") }
      return
    case nil:
      sheetDeadline = nil
      return
    }
    if let answer = store.queue.sheetAnswers[id] {
      sheetDeadline = nil
      if signingIn, answer == .confirm {
        // Confirmed without a sign-in (a storefront that asks none): the app's own account.
        do { try perform(.signIn(store.configuration.account, password: nil)) } catch { report("signing in failed: \(describe(error))") }
        try? store.queue.tell(.answer(id, nil))
      } else {
        carryOut(answer, for: id, in: store)
      }
      return
    }
    let storefronts = store.queue.attachedProcesses.filter { $0.role == .storefront }
    if storefronts.contains(where: \.showsSheets) {
      sheetDeadline = nil
      return
    }
    if !storefronts.isEmpty || attachment.answersItself {
      // Dialogs off: the store answers by itself, as the simulator does.
      sheetDeadline = nil
      if signingIn {
        do { try perform(.signIn(store.configuration.account, password: nil)) } catch { report("signing in failed: \(describe(error))") }
      } else {
        carryOut(.confirm, for: id, in: store)
      }
      return
    }
    let now = Date()
    guard let deadline = sheetDeadline, deadline.id == id else {
      sheetDeadline = (id, now.addingTimeInterval(attachment.timeout))
      let directory = store.configuration.dataDirectory?.path ?? ""
      FileHandle.standardError.write(Data((
        "StoreKit: the \(signingIn ? "sign-in" : "purchase") sheet for \(product) waits for a storefront on \(directory); start one with "
          + "`storefront --data-dir \(directory)` (or set STOREFRONT_DIALOGS=off); it is cancelled in "
          + "\(Int(attachment.timeout)) s\n").utf8))
      return
    }
    if now >= deadline.date {
      sheetDeadline = nil
      carryOut(.cancel, for: id, in: store)
    }
  }

  private func carryOut(_ answer: SheetAnswer, for id: StoreEngine.PaymentTransaction.ID, in store: OpenStore) {
    do {
      try perform(answer == .confirm ? .confirm : .cancel)
    } catch {
      report("answering the purchase sheet of transaction \(id) failed: \(describe(error))")
    }
    var done: [DeviceCommand] = []
    if store.queue.sheetAnswers[id] != nil { done.append(.answer(id, nil)) }
    if store.queue.sheetQuotes[id] != nil { done.append(.quote(id, nil)) }
    try? store.queue.tell(done)
  }

  /// One thread per attached store follows the ledger for as long as the store is open: it blocks
  /// on the store's ``LedgerWatch`` and, when another process committed (or the liveness interval
  /// passed), takes the commits in and tells the app: a storefront's answer to its sheet, an
  /// Ask to Buy approval, a renewal another process's clock made. Then it attends the open sheet
  /// (its deadline when no storefront answers). It ends when another store replaces this one.
  func startFollower(_ store: OpenStore) {
    guard store.configuration.attachment != nil, let watch = store.watch else { return }
    let generation = storeGeneration
    followersStarted += 1
    let thread = Thread { [weak self] in
      while let self {
        // Blocks outside the lock until another process committed, or, while a sheet waits with
        // nobody to answer it, until it is time to look anyway (the wait's deadline). A sheet a
        // storefront shows is answered by a commit, which wakes the watch; that storefront dying is
        // noticed at the quiet look (``LedgerWatch/quietInterval``), so a waiting app costs no CPU.
        let deadlinePending: Bool = self.locked { self.currentStore?.queue.prompt != nil && self.sheetDeadline != nil }
        let worthALook = watch.wait(lookingAnyway: deadlinePending)
        let goOn: Bool = self.locked {
          guard self.storeGeneration == generation, let store = self.currentStore else { return false }
          self.followerWakes += 1
          guard worthALook else { return true }
          do { try store.queue.refresh() } catch { self.report("reading the ledger's changes failed: \(self.describe(error))") }
          self.deliver(store.collector.drain(), from: store)
          self.attendSheet(store)
          return true
        }
        if !goOn { return }
      }
    }
    thread.name = "StoreKit ledger follower"
    thread.start()
  }
}
