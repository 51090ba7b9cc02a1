import Foundation
internal import StoreEngine

/// The signed record of the app's download by the signed-in account: what `AppTransaction.shared`
/// returns, signed by the store's sandbox CA like every transaction (it passes Apple's
/// `SignedDataVerifier.verifyAndDecodeAppTransaction` with the session's root).
public struct AppTransaction: Sendable, Hashable {
  /// The signed payload's JSON.
  public let jsonRepresentation: Data
  /// The app's Apple id: nil in the sandbox, as on Apple's.
  public let appID: UInt64?
  /// nil in the sandbox, as on Apple's.
  public let appVersionID: UInt64?
  public let appVersion: String
  public let bundleID: String
  public let environment: AppStore.Environment
  public let originalAppVersion: String
  /// When the account first got the app: its earliest purchase in this store, else now.
  public let originalPurchaseDate: Date
  public let preorderDate: Date?
  /// SHA-384 of ``deviceVerificationNonce`` and ``AppStore/deviceVerificationID`` (this device's).
  public let deviceVerification: Data
  public let deviceVerificationNonce: UUID
  public let signedDate: Date
  /// The same for every app transaction of this account and app (the App Store Server API's `appTransactionId`).
  public let appTransactionID: String
  public let originalPlatform: AppStore.Platform
  /// The compact JWS (``VerificationResult/jwsRepresentation`` hands it out).
  let jws: String

  init(_ payload: AppTransactionPayload, json: Data, jws: String) {
    jsonRepresentation = json
    appID = payload.appAppleId.map { UInt64(bitPattern: $0) }
    appVersionID = nil
    appVersion = payload.applicationVersion
    bundleID = payload.bundleId
    environment = AppStore.Environment(rawValue: payload.receiptType)
    originalAppVersion = payload.originalApplicationVersion
    originalPurchaseDate = Date(timeIntervalSince1970: Double(payload.originalPurchaseDate) / 1000)
    preorderDate = nil
    let device = DeviceVerification(jws: jws)
    deviceVerification = device.hash
    deviceVerificationNonce = device.nonce
    signedDate = Date(timeIntervalSince1970: Double(payload.signedDate) / 1000)
    appTransactionID = payload.appTransactionId
    originalPlatform = AppStore.Platform(rawValue: payload.originalPlatform)
    self.jws = jws
  }

  /// The app transaction, signed now and verified against the store's root.
  ///
  /// - Throws: the ``StoreKitError`` a simulated `appTransaction` error sets.
  public static var shared: VerificationResult<AppTransaction> {
    get async throws { try StoreKitEnvironment.shared.appTransaction() }
  }

  /// Signs the app transaction again (Apple asks the user to sign in; the sandbox account is signed in).
  public static func refresh() async throws -> VerificationResult<AppTransaction> {
    try StoreKitEnvironment.shared.appTransaction()
  }
}

extension AppTransaction {
  /// The platform the app was first bought on, as the payload's string (`iOS`, `macOS`…).
  @available(*, deprecated, message: "Use the originalPlatform property instead")
  public var originalPlatformStringRepresentation: String { originalPlatform.rawValue }
}

extension AppTransaction: CustomDebugStringConvertible {
  /// The signed payload's JSON, pretty-printed.
  public var debugDescription: String { PrettyJSON.string(jsonRepresentation) }
}

extension AppStore {
  /// The platform an app was first bought on.
  public struct Platform: RawRepresentable, Equatable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let iOS = Platform(rawValue: "iOS")
    public static let macOS = Platform(rawValue: "macOS")
    public static let tvOS = Platform(rawValue: "tvOS")
    public static let visionOS = Platform(rawValue: "visionOS")
  }
}

extension StoreKitEnvironment {
  func appTransaction() throws -> VerificationResult<AppTransaction> {
    let failure: SimulatedFailure?
    do { failure = try read { $0.queue.controls.failures[.appTransaction] } } catch { throw StoreKitError.unknown }
    if let failure { throw Self.storeKit2Error(failure.error) }
    do {
      return try read { store in
        let now = store.queue.now
        let account = store.queue.currentAccount ?? store.configuration.account
        let payload = AppTransactionPayload(
          environment: store.configuration.signingEnvironment, appAppleID: nil, bundleID: store.configuration.bundleID, account: account,
          firstPurchase: try store.queue.ledger.earliestOriginalPurchase(account: account), now: now)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(payload)
        let jws = try store.signer.sign(payload: json)
        let made = AppTransaction(payload, json: json, jws: jws)
        do {
          _ = try store.verifier().verify(jws)
          return .verified(made)
        } catch {
          return .unverified(made, .invalidSignature)
        }
      }
    } catch {
      report("signing the app transaction failed: \(describe(error))")
      throw StoreKitError.unknown
    }
  }
}
