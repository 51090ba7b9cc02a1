import Foundation
import StoreKit
internal import StoreEngine

/// Controls the process's one StoreKit test environment, as Xcode's `SKTestSession` does: the
/// products of a `.storekit` file, the sandbox switches, and the transaction manager's actions.
///
/// Unlike Xcode's, every call takes effect before it returns (there is no daemon to wait for), and
/// time moves only when the test calls ``advance(by:)``: no test needs a sleep. A new session opens
/// a fresh store (in memory unless a data directory is given), so tests do not see each other's
/// transactions. There is one test environment per process: the newest session's.
///
/// ```swift
/// let session = try SKTestSession(configurationFileNamed: "Products")
/// session.disableDialogs = true
/// session.clearTransactions()
/// let result = try await product.purchase()
/// ```
open class SKTestSession: NSObject, @unchecked Sendable {
  let environment = StoreKitEnvironment.shared
  /// Moves the virtual clock with the wall clock while a test waits under an accelerated rate.
  let clock = WallClockFollower(environment: StoreKitEnvironment.shared)
  /// The data directory the session's store lives in, nil for memory.
  public let dataDirectory: URL?

  /// A session on the `.storekit` file at `fileURL`.
  ///
  /// - Throws: ``SKTestError`` `.fileNotFound`, or `.invalidAction` with every problem of the file
  ///   as `path:line:column: message`.
  public convenience init(contentsOf fileURL: URL) throws {
    try self.init(contentsOf: fileURL, dataDirectory: nil)
  }

  /// A session on the `.storekit` file at `fileURL` whose store lives in `dataDirectory` (a
  /// storefront data directory: its ledger, sandbox CA and receipts; `storefront` commands read it).
  public init(contentsOf fileURL: URL, dataDirectory: URL?) throws {
    let path = fileURL.path
    let catalog: StoreEngine.Catalog
    do {
      catalog = try CatalogLoader.load(path: path)
    } catch {
      switch error {
      case .fileNotFound: throw SKTestError(.fileNotFound, message: "\(path): no such StoreKit configuration file")
      default: throw SKTestError(.invalidAction, message: error.description)
      }
    }
    self.dataDirectory = dataDirectory
    var configuration = StoreConfiguration(catalog: catalog, catalogPath: path, dataDirectory: dataDirectory)
    // Xcode signs StoreKit Testing transactions as `Xcode`; the session's root still verifies them.
    configuration.signingEnvironment = "Xcode"
    do {
      try environment.replace(with: configuration)
    } catch {
      throw SKTestError(.serviceUnavailable, message: error.description)
    }
    super.init()
    clock.follow(rate: catalog.settings.timeRate)
  }

  /// A session on the configuration file `name` (with or without `.storekit`), looked up in the main
  /// bundle, the other loaded bundles, SwiftPM's resource bundles next to the executable
  /// (`Bundle.module` of a test target) and the working directory.
  public convenience init(configurationFileNamed name: String) throws {
    guard let url = Self.locate(configurationFileNamed: name) else {
      throw SKTestError(.fileNotFound, message: "no StoreKit configuration file named '\(name)' in \(Self.searchPlaces().map(\.path).joined(separator: ", "))")
    }
    try self.init(contentsOf: url)
  }

  static func searchPlaces() -> [URL] {
    var places = [Bundle.main.bundleURL] + Bundle.allBundles.map(\.bundleURL)
    let executableDirectory = Bundle.main.executableURL?.deletingLastPathComponent() ?? Bundle.main.bundleURL
    for directory in [executableDirectory, executableDirectory.deletingLastPathComponent()] {
      let entries = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
      places += entries.filter { $0.pathExtension == "resources" || $0.pathExtension == "bundle" }
        .sorted { $0.path < $1.path }
    }
    places.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
    return places
  }

  static func locate(configurationFileNamed name: String) -> URL? {
    let file = name.hasSuffix(".storekit") ? name : name + ".storekit"
    for place in searchPlaces() {
      for candidate in [place.appendingPathComponent(file), place.appendingPathComponent("Resources").appendingPathComponent(file)]
      where FileManager.default.fileExists(atPath: candidate.path) {
        return candidate
      }
    }
    return nil
  }

  // MARK: Switches

  /// Purchases complete without the purchase sheet. Off (Apple's default): a purchase waits until
  /// the test answers the sheet with ``confirmPurchaseSheet()`` or ``cancelPurchaseSheet()``.
  open var disableDialogs: Bool {
    get { control { !$0.dialogsEnabled } }
    set { set(.dialogs(!newValue)) }
  }

  /// Every purchase waits for a parent's answer (``approveAskToBuyTransaction(identifier:)``).
  open var askToBuyEnabled: Bool {
    get { control(\.askToBuy) }
    set { set(.askToBuy(newValue)) }
  }

  /// Every purchase fails until resolved (``resolveIssueForTransaction(identifier:)``).
  open var interruptedPurchasesEnabled: Bool {
    get { control(\.interruptedPurchases) }
    set { set(.interruptedPurchases(newValue)) }
  }

  /// Renewals fail with a billing issue.
  open var shouldEnterBillingRetryOnRenewal: Bool {
    get { control(\.billingRetry) }
    set { set(.billingRetry(newValue)) }
  }

  /// A subscription in billing retry keeps its service for the grace period.
  open var billingGracePeriodIsEnabled: Bool {
    get { control(\.gracePeriod) }
    set { set(.gracePeriod(newValue)) }
  }

  /// Purchases fail with ``failureError``.
  @available(*, deprecated, message: "No longer supported. Use simulatedError(forAPI:).")
  open var failTransactionsEnabled: Bool {
    get { control { $0.failures[.purchase] != nil } }
    set { set(.failure(.purchase, newValue ? SimulatedFailure(error: .init(code: failureError.rawValue)) : nil)) }
  }

  private let failureErrorBox = LockedValue(SKError.Code.unknown)

  /// The error purchases fail with while ``failTransactionsEnabled`` is on.
  @available(*, deprecated, message: "No longer supported. Use simulatedError(forAPI:).")
  open var failureError: SKError.Code {
    get { failureErrorBox.value }
    set {
      failureErrorBox.value = newValue
      if control({ $0.failures[.purchase] != nil }) {
        set(.failure(.purchase, SimulatedFailure(error: .init(code: newValue.rawValue))))
      }
    }
  }

  /// The storefront (ISO 3166-1 alpha-3), e.g. `USA`; its currency prices the products.
  open var storefront: String {
    get { control(\.storefront) }
    set { set(.storefront(newValue)) }
  }

  /// The locale products are localized and priced for.
  open var locale: Locale {
    get { Locale(identifier: control(\.locale)) }
    set { set(.locale(newValue.identifier)) }
  }

  /// How long subscription periods last. Under an accelerated rate the virtual clock follows the
  /// wall clock while the test waits (an expectation, an `await`), as Xcode's does, until the test
  /// first calls ``advance(by:)``; at real time it moves only by ``advance(by:)``.
  open var timeRate: TimeRate {
    get { TimeRate(rawValue: control(\.timeRate)) ?? .realTime }
    set {
      set(.timeRate(newValue.rawValue))
      clock.follow(rate: newValue.rawValue)
    }
  }

  private func control<T>(_ read: (SandboxControls) -> T) -> T {
    do {
      return try environment.read { read($0.queue.controls) }
    } catch {
      environment.report("reading the session's controls failed: \(error)")
      return read(SandboxControls())
    }
  }

  private func set(_ change: ControlChange) {
    do { try environment.perform(.setControl(change)) } catch {
      environment.report("the session could not set \(change): \(Self.message(for: error))")
    }
  }

  // MARK: Simulated errors

  /// Makes `api` fail with `error` from now on (nil: succeed again). Works for every API, at once.
  ///
  /// - Throws: ``SKTestError/Code/invalidAction`` for an API type that is not one of StoreKit's.
  public func setSimulatedError<API: FailableStoreKitAPI>(_ error: API.Failure?, forAPI api: API) async throws {
    guard let engineAPI = StoreAPI(api) else {
      throw SKTestError(.invalidAction, message: "\(API.self) is not one of StoreKit's failable APIs")
    }
    try perform(.setControl(.failure(engineAPI, error.map { SimulatedFailure($0._errorCode) })))
  }

  /// The error `api` fails with now (set by ``setSimulatedError(_:forAPI:)`` or the configuration
  /// file's StoreKit errors), nil when it succeeds.
  public func simulatedError<API: FailableStoreKitAPI>(forAPI api: API) async -> API.Failure? {
    guard let engineAPI = StoreAPI(api), let failure = control({ $0.failures[engineAPI] }) else { return nil }
    return API.Failure(_fromErrorCode: failure.code)
  }

  // MARK: Helpers

  func perform(_ command: StoreCommand) throws {
    do {
      try environment.perform(command)
    } catch {
      throw Self.testError(for: error)
    }
  }

  static func testError(for error: StorePerformError) -> SKTestError {
    switch error {
    case .engine(.unknownTransaction(let id)): SKTestError(.noTransactionFound, message: "no transaction \(id) in the test environment")
    case .engine(.notSubscription(let id)): SKTestError(.noSubscriptionFound, message: "transaction \(id) is no auto-renewable subscription")
    case .open(let failure): SKTestError(.serviceUnavailable, message: failure.description)
    default: SKTestError(.invalidAction, message: message(for: error))
    }
  }

  static func message(for error: StorePerformError) -> String {
    switch error {
    case .open(let failure): failure.description
    case .engine(let failure): failure.description
    case .other(let text): text
    }
  }
}

/// A value behind a lock (the session is shared between a test and the code it tests).
final class LockedValue<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      stored = newValue
    }
  }
}
