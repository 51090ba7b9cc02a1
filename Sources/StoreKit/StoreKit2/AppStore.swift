import Foundation
internal import StoreEngine

/// The App Store: whether the account can pay, and syncing its transactions.
public enum AppStore: Sendable {
  /// Whether the user may make payments.
  public static var canMakePayments: Bool { StoreKitEnvironment.shared.canMakePayments() }

  /// The app's current age rating code (iOS 26.2), nil when unavailable: the sandbox's setting
  /// (Settings → Age rating code in the storefront, `set age-rating` in a scenario). An app compares
  /// it with the last one it saw to tell parents of a change.
  public static var ageRatingCode: Int? {
    get async { try? StoreKitEnvironment.shared.read { $0.queue.controls.ageRatingCode } }
  }

  /// This device's id for checking `deviceVerification` (SHA-384 of a signed value's nonce followed
  /// by this id): one simulated device per process.
  public static var deviceVerificationID: UUID? { DeviceVerification.deviceID }

  /// Syncs the account's transactions with the App Store (a restore, to the engine); read
  /// `Transaction.currentEntitlements` once it returns.
  ///
  /// - Throws: the ``StoreKitError`` a simulated `appStoreSync` error sets.
  public static func sync() async throws {
    let environment = StoreKitEnvironment.shared
    let failure: StoreEngine.StoreKitError? = try environment.locked {
      let step = try environment.perform(.restore)
      for event in step.events {
        if case .restoreFailed(let error) = event { return error }
      }
      return nil
    }
    if let failure { throw StoreKitEnvironment.storeKit2Error(failure) }
  }

  /// Where a transaction was signed.
  public struct Environment: RawRepresentable, Equatable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let production = Environment(rawValue: "Production")
    public static let sandbox = Environment(rawValue: "Sandbox")
    public static let xcode = Environment(rawValue: "Xcode")
  }
}

/// The App Store storefront of the account.
public struct Storefront: Identifiable, Hashable, Sendable {
  /// ISO 3166-1 alpha-3 code.
  public let countryCode: String
  /// Apple's storefront id.
  public let id: String
  public let currency: Locale.Currency?

  init(code: String) {
    countryCode = code
    let known = StoreEngine.Storefront.lookup(code)
    id = known.map { String($0.id) } ?? ""
    currency = known.map { Locale.Currency($0.currencyCode) }
  }

  /// The account's storefront now.
  public static var current: Storefront? {
    get async { try? StoreKitEnvironment.shared.read { Storefront(code: $0.queue.controls.storefront) } }
  }

  /// The storefront each time it changes, from now on.
  public static var updates: Storefronts { Storefronts(stream: StoreKitEnvironment.shared.addStorefrontListener()) }

  /// An asynchronous sequence of storefronts.
  public struct Storefronts: AsyncSequence, Sendable {
    public typealias Element = Storefront
    let stream: AsyncStream<Storefront>

    public struct AsyncIterator: AsyncIteratorProtocol {
      var base: AsyncStream<Storefront>.AsyncIterator
      public mutating func next() async -> Storefront? { await base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
  }
}
