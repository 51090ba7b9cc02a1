import Foundation

/// A process attached to a store's data directory or shared ledger: an app running the `StoreKit`
/// library, or a storefront (the TUI) acting as that device's App Store. Each one writes its own
/// entry into the ledger's device values when it starts and removes it when it ends, so the others
/// can name it (the TUI's header) and know whether anyone answers purchase sheets.
public struct AttachedProcess: Codable, Sendable, Equatable {
  public enum Role: String, Codable, Sendable {
    /// An app using the `StoreKit` library without an `SKTestSession`.
    case app
    /// A storefront TUI: it shows attached apps' sheets.
    case storefront
  }

  /// The process's engine session (``StoreEnvironment/session``), which owns the sheets it opens.
  public var session: String
  public var role: Role
  /// The app's bundle id (a storefront's simulated app's for a storefront).
  public var bundleID: String
  public var pid: Int32
  /// The host name, so that only a process on this host is checked for being alive.
  public var host: String
  public var since: Date
  /// A storefront's dialogs setting: whether it shows sheets (off: apps confirm by themselves).
  public var showsSheets: Bool
  /// A storefront's `.storekit` file (nil: its built-in catalog): an app without its own uses it.
  public var catalog: String?
  /// A storefront's sandbox settings, which attached apps follow (nil for an app).
  public var settings: DeviceSettings?

  public init(
    session: String, role: Role, bundleID: String, pid: Int32 = ProcessInfo.processInfo.processIdentifier,
    host: String = AttachedProcess.thisHost(), since: Date, showsSheets: Bool, catalog: String? = nil
  ) {
    self.session = session
    self.role = role
    self.bundleID = bundleID
    self.pid = pid
    self.host = host
    self.since = since
    self.showsSheets = showsSheets
    self.catalog = catalog
  }

  /// Whether the process may still run: on another host, yes (it removes its own entry); on this
  /// one, whether its session's process runs (a SIGKILLed process left its entry behind).
  public var mayBeAlive: Bool {
    guard host == Self.thisHost() else { return true }
    return ProcessSession().isAlive(session)
  }

  /// Whether the process runs, as `session` (the asking process's) can tell: one on this host by
  /// `/proc`; one on another host by `session` (on a shared ledger, the session advisory lock the
  /// other process holds while it runs, so one SIGKILLed there drops out once its database session ends).
  public func isRunning(askedBy session: AppSession) -> Bool {
    host == Self.thisHost() ? mayBeAlive : session.isAlive(self.session)
  }

  /// This machine's host name.
  public static func thisHost() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// A storefront's answer to an attached app's purchase sheet; the app carries it out.
public enum SheetAnswer: String, Codable, Sendable {
  case confirm
  case cancel
}

/// The ledger's device values (``LedgerChange/setDeviceValue(key:value:)``) read as attached
/// processes and sheet answers.
public enum DeviceValues {
  static let processPrefix = "process."
  static let answerPrefix = "sheet-answer."
  static let logPrefix = "app-log."
  static let signInPrefix = "sign-in."
  static let quotePrefix = "sheet-quote."
  static let codeSheetPrefix = "code-sheet."
  /// How many of an app's newest callback lines its log entry keeps.
  public static let logLines = 40

  /// An attached app's callback lines as it heard them, newest last: `count` is how many it has
  /// written in all (so a reader tells new lines from ones it showed), `lines` the newest of them.
  /// The bundle id is in the entry itself: it outlives the app's registration (read after it quit).
  public struct AppLog: Codable, Sendable, Equatable {
    public var bundleID: String
    public var count: Int
    public var lines: [String]

    public init(bundleID: String, count: Int = 0, lines: [String] = []) {
      self.bundleID = bundleID
      self.count = count
      self.lines = lines
    }

    /// `self` with `more` lines written after the others, keeping the newest ``DeviceValues/logLines``.
    public func appending(_ more: [String]) -> AppLog {
      AppLog(bundleID: bundleID, count: count + more.count, lines: Array((lines + more).suffix(DeviceValues.logLines)))
    }

    /// The lines written after the first `seen` of all, as far as the entry still holds them.
    public func lines(after seen: Int) -> [String] {
      Array(lines.suffix(max(0, min(lines.count, count - seen))))
    }
  }

  /// What processes no longer running left behind: their entries and their logs, as the command
  /// that removes them (nil: nothing to remove). `isRunning` tells (default: ``AttachedProcess/mayBeAlive``).
  public static func leftBehind(
    in values: [String: String], isRunning: (AttachedProcess) -> Bool = \.mayBeAlive
  ) -> DeviceCommand? {
    let entries = processes(in: values)
    let alive = Set(entries.filter(isRunning).map(\.session))
    let dead = entries.filter { !alive.contains($0.session) }.map(\.session)
    let logs = values.keys.filter { $0.hasPrefix(logPrefix) && !alive.contains(String($0.dropFirst(logPrefix.count))) }
      .map { String($0.dropFirst(logPrefix.count)) }.sorted()
    return dead.isEmpty && logs.isEmpty ? nil : .forget(sessions: dead, logs: logs)
  }

  /// The change that removes the callback log of the app of `session`.
  static func forgetLog(session: String) -> LedgerChange { .setDeviceValue(key: logPrefix + session, value: nil) }

  /// The change that writes the callback log of the app of `session`.
  public static func log(_ log: AppLog, session: String) -> LedgerChange {
    let json = (try? JSONEncoder().encode(log)).map { String(decoding: $0, as: UTF8.self) }
    return .setDeviceValue(key: logPrefix + session, value: json)
  }

  /// Every attached app's callback log in `values`, by the app's session.
  public static func logs(in values: [String: String]) -> [String: AppLog] {
    var logs: [String: AppLog] = [:]
    for (key, value) in values where key.hasPrefix(logPrefix) {
      if let log = try? JSONDecoder().decode(AppLog.self, from: Data(value.utf8)) { logs[String(key.dropFirst(logPrefix.count))] = log }
    }
    return logs
  }

  /// The change that registers `process` (or updates its entry).
  public static func register(_ process: AttachedProcess) -> LedgerChange {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .millisecondsSince1970
    let json = (try? encoder.encode(process)).map { String(decoding: $0, as: UTF8.self) }
    return .setDeviceValue(key: processPrefix + process.session, value: json)
  }

  /// The change that removes the entry of `session`.
  public static func unregister(session: String) -> LedgerChange { .setDeviceValue(key: processPrefix + session, value: nil) }

  /// The change that answers the sheet of transaction `id` (nil: the answer was carried out).
  public static func answer(_ id: PaymentTransaction.ID, _ answer: SheetAnswer?) -> LedgerChange {
    .setDeviceValue(key: answerPrefix + String(id.rawValue), value: answer?.rawValue)
  }

  /// What an attached app's purchase sheet states, as the app's own engine quoted it (its
  /// ``PurchasePrompt/confirm(transaction:product:quantity:alreadyOwned:price:terms:)``): the
  /// storefront shows this, not a price of its own, so a free trial reads as one.
  public struct SheetQuote: Codable, Sendable, Equatable {
    /// What confirming charges (an offer's price, zero for a re-download or a free trial).
    public var price: Decimal
    public var alreadyOwned: Bool
    /// An auto-renewable subscription's terms (B73).
    public var terms: SubscriptionTerms<Decimal>?
    /// Ask to Buy is on for the app: confirming sends the request to the parent (`deferred`).
    public var asksToBuy: Bool

    public init(price: Decimal, alreadyOwned: Bool, terms: SubscriptionTerms<Decimal>?, asksToBuy: Bool) {
      self.price = price
      self.alreadyOwned = alreadyOwned
      self.terms = terms
      self.asksToBuy = asksToBuy
    }
  }

  /// The change that publishes the quote of the sheet of transaction `id` (nil: the sheet closed).
  public static func quote(_ id: PaymentTransaction.ID, _ quote: SheetQuote?) -> LedgerChange {
    let json = quote.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
    return .setDeviceValue(key: quotePrefix + String(id.rawValue), value: json)
  }

  /// The attached apps' sheet quotes in `values`, by transaction.
  public static func quotes(in values: [String: String]) -> [PaymentTransaction.ID: SheetQuote] {
    var found: [PaymentTransaction.ID: SheetQuote] = [:]
    for (key, value) in values where key.hasPrefix(quotePrefix) {
      guard let raw = UInt64(key.dropFirst(quotePrefix.count)),
        let quote = try? JSONDecoder().decode(SheetQuote.self, from: Data(value.utf8))
      else { continue }
      found[PaymentTransaction.ID(raw)] = quote
    }
    return found
  }

  /// The change that tells the app whose purchase `id` asked to sign in that the storefront signed
  /// the device in as `account` (nil: the app took it in).
  public static func signedIn(_ id: PaymentTransaction.ID, account: String?) -> LedgerChange {
    .setDeviceValue(key: signInPrefix + String(id.rawValue), value: account)
  }

  /// The storefronts' sign-ins for attached apps' purchases, by transaction.
  public static func signIns(in values: [String: String]) -> [PaymentTransaction.ID: String] {
    var found: [PaymentTransaction.ID: String] = [:]
    for (key, value) in values where key.hasPrefix(signInPrefix) {
      if let raw = UInt64(key.dropFirst(signInPrefix.count)) { found[PaymentTransaction.ID(raw)] = value }
    }
    return found
  }

  /// The change that opens (an app called `presentCodeRedemptionSheet()`) or closes the offer-code
  /// redemption sheet of the app of `session`, and carries what the storefront typed into it: nil
  /// closes it, `open` waits, `code:` + code is the code typed, `cancelled` cancelled (an empty value
  /// is no value: the ledgers store a removal as one).
  static func codeSheet(session: String, _ state: CodeSheet?) -> LedgerChange {
    let value: String? =
      switch state {
      case nil: nil
      case .waiting?: "open"
      case .redeem(let code)?: "code:" + code
      case .cancelled?: "cancelled"
      }
    return .setDeviceValue(key: codeSheetPrefix + session, value: value)
  }

  /// Where an attached app's offer-code redemption sheet is.
  public enum CodeSheet: Sendable, Equatable {
    /// Open: the storefront shows it.
    case waiting
    /// The storefront typed a code; the app redeems it.
    case redeem(String)
    /// The storefront's user cancelled it.
    case cancelled
  }

  /// The attached apps' offer-code redemption sheets in `values`, by the app's session.
  public static func codeSheets(in values: [String: String]) -> [String: CodeSheet] {
    var found: [String: CodeSheet] = [:]
    for (key, value) in values where key.hasPrefix(codeSheetPrefix) {
      let session = String(key.dropFirst(codeSheetPrefix.count))
      if value == "open" {
        found[session] = .waiting
      } else if value == "cancelled" {
        found[session] = .cancelled
      } else if value.hasPrefix("code:") {
        found[session] = .redeem(String(value.dropFirst("code:".count)))
      }
    }
    return found
  }

  /// Every registered process in `values`, oldest first (entries that do not decode are skipped).
  public static func processes(in values: [String: String]) -> [AttachedProcess] {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    return values.compactMap { key, value -> AttachedProcess? in
      guard key.hasPrefix(processPrefix) else { return nil }
      return try? decoder.decode(AttachedProcess.self, from: Data(value.utf8))
    }.sorted { ($0.since, $0.session) < ($1.since, $1.session) }
  }

  /// The sheet answers in `values`, by transaction.
  public static func answers(in values: [String: String]) -> [PaymentTransaction.ID: SheetAnswer] {
    var answers: [PaymentTransaction.ID: SheetAnswer] = [:]
    for (key, value) in values where key.hasPrefix(answerPrefix) {
      guard let raw = UInt64(key.dropFirst(answerPrefix.count)), let answer = SheetAnswer(rawValue: value) else { continue }
      answers[PaymentTransaction.ID(raw)] = answer
    }
    return answers
  }
}

extension PaymentQueue {
  /// The ledger's device values as this process last took them in (``DeviceValues``): who is
  /// attached, sheets, answers.
  public var deviceValues: [String: String] { machine.deviceValues }

  /// The processes attached to this store that may still run, oldest first (this one included
  /// once it registered), as this process's session tells (``AttachedProcess/isRunning(askedBy:)``).
  public var attachedProcesses: [AttachedProcess] {
    DeviceValues.processes(in: deviceValues).filter(isRunning)
  }

  /// Whether the process of `entry` runs, as ``attachedProcesses`` asks.
  public func isRunning(_ entry: AttachedProcess) -> Bool { entry.isRunning(askedBy: machine.environment.session) }

  /// The storefronts' sign-ins for attached apps' signed-out purchases, by transaction, as last read.
  public var sheetSignIns: [PaymentTransaction.ID: String] { DeviceValues.signIns(in: deviceValues) }

  /// The attached apps' sheet quotes, by transaction, as last read.
  public var sheetQuotes: [PaymentTransaction.ID: DeviceValues.SheetQuote] { DeviceValues.quotes(in: deviceValues) }

  /// The attached apps' offer-code redemption sheets, by the app's session, as last read.
  public var codeSheets: [String: DeviceValues.CodeSheet] { DeviceValues.codeSheets(in: deviceValues) }

  /// The store's offer codes (App Store Connect's one-time and custom codes), as last read.
  public var offerCodes: [OfferCode] { OfferCodeBook.codes(in: deviceValues) }
  /// Retention Messaging's configuration as this process last took it in from the ledger (its
  /// commit log): what `storefront serve` on the same ledger stored (``RetentionMessagingStore``).
  public var retentionMessaging: RetentionMessaging {
    RetentionMessagingStore.decode(deviceValues[RetentionMessagingStore.key]) ?? RetentionMessaging()
  }

  /// The storefronts' answers to attached apps' sheets, by transaction, as last read.
  public var sheetAnswers: [PaymentTransaction.ID: SheetAnswer] { DeviceValues.answers(in: deviceValues) }

  /// Says `commands` to the other attached processes as one step (``StoreCommand/device(_:)``).
  public func tell(_ commands: DeviceCommand...) throws(EngineError) {
    try tell(commands)
  }

  /// Says `commands` to the other attached processes as one step (``StoreCommand/device(_:)``).
  public func tell(_ commands: [DeviceCommand]) throws(EngineError) {
    guard !commands.isEmpty else { return }
    try perform(.device(commands))
  }
}
