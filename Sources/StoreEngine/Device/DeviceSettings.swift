import Foundation

/// The sandbox settings a storefront TUI sets for its device, which apps attached to its store
/// follow (Ask to Buy, interrupted purchases, failures per API, billing retry, grace period, the
/// storefront and locale, payments allowed). Dialogs are not among them: whether the storefront
/// shows sheets is ``AttachedProcess/showsSheets``; the clock is the ledger's already.
public struct DeviceSettings: Codable, Sendable, Equatable {
  public var askToBuy: Bool
  public var interruptedPurchases: Bool
  public var canMakePayments: Bool
  public var billingRetry: Bool
  public var gracePeriod: Bool
  public var storefront: String
  public var locale: String
  /// By ``StoreAPI`` raw value.
  public var failures: [String: SimulatedFailure]
  /// `AppStore.ageRatingCode` (nil: unavailable); entries written before it existed decode as 100.
  public var ageRatingCode: Int?
  /// The glitches switched on, by ``StoreGlitch`` raw value; entries written before them decode as none.
  public var glitches: [String: GlitchSetting]

  private enum CodingKeys: String, CodingKey {
    case askToBuy, interruptedPurchases, canMakePayments, billingRetry, gracePeriod, storefront, locale, failures, ageRatingCode, glitches
    case ageRatingUnavailable
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    askToBuy = try container.decode(Bool.self, forKey: .askToBuy)
    interruptedPurchases = try container.decode(Bool.self, forKey: .interruptedPurchases)
    canMakePayments = try container.decode(Bool.self, forKey: .canMakePayments)
    billingRetry = try container.decode(Bool.self, forKey: .billingRetry)
    gracePeriod = try container.decode(Bool.self, forKey: .gracePeriod)
    storefront = try container.decode(String.self, forKey: .storefront)
    locale = try container.decode(String.self, forKey: .locale)
    failures = try container.decode([String: SimulatedFailure].self, forKey: .failures)
    let unavailable = try container.decodeIfPresent(Bool.self, forKey: .ageRatingUnavailable) ?? false
    ageRatingCode = unavailable ? nil : try container.decodeIfPresent(Int.self, forKey: .ageRatingCode) ?? SandboxControls().ageRatingCode
    glitches = try container.decodeIfPresent([String: GlitchSetting].self, forKey: .glitches) ?? [:]
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(askToBuy, forKey: .askToBuy)
    try container.encode(interruptedPurchases, forKey: .interruptedPurchases)
    try container.encode(canMakePayments, forKey: .canMakePayments)
    try container.encode(billingRetry, forKey: .billingRetry)
    try container.encode(gracePeriod, forKey: .gracePeriod)
    try container.encode(storefront, forKey: .storefront)
    try container.encode(locale, forKey: .locale)
    try container.encode(failures, forKey: .failures)
    // Nil is said out loud: a missing key means an older storefront, whose apps saw the default.
    if let ageRatingCode { try container.encode(ageRatingCode, forKey: .ageRatingCode) } else { try container.encode(true, forKey: .ageRatingUnavailable) }
    if !glitches.isEmpty { try container.encode(glitches, forKey: .glitches) }
  }

  public init(_ controls: SandboxControls) {
    askToBuy = controls.askToBuy
    interruptedPurchases = controls.interruptedPurchases
    canMakePayments = controls.canMakePayments
    billingRetry = controls.billingRetry
    gracePeriod = controls.gracePeriod
    storefront = controls.storefront
    locale = controls.locale
    failures = Dictionary(uniqueKeysWithValues: controls.failures.map { ($0.key.rawValue, $0.value) })
    ageRatingCode = controls.ageRatingCode
    glitches = Dictionary(uniqueKeysWithValues: controls.glitches.map { ($0.key.rawValue, $0.value) })
  }

  /// The control changes that take `controls` from `previous` (the settings last followed; nil: none
  /// yet, then every setting that differs from `controls`) to these: what the storefront changed,
  /// so that a setting the app made for one call (`simulatesAskToBuyInSandbox`) is not undone.
  public func changes(since previous: DeviceSettings?, in controls: SandboxControls) -> [ControlChange] {
    let base = previous ?? DeviceSettings(controls)
    var changes: [ControlChange] = []
    if askToBuy != base.askToBuy { changes.append(.askToBuy(askToBuy)) }
    if interruptedPurchases != base.interruptedPurchases { changes.append(.interruptedPurchases(interruptedPurchases)) }
    if canMakePayments != base.canMakePayments { changes.append(.canMakePayments(canMakePayments)) }
    if billingRetry != base.billingRetry { changes.append(.billingRetry(billingRetry)) }
    if gracePeriod != base.gracePeriod { changes.append(.gracePeriod(gracePeriod)) }
    if storefront != base.storefront { changes.append(.storefront(storefront)) }
    if locale != base.locale { changes.append(.locale(locale)) }
    if ageRatingCode != base.ageRatingCode { changes.append(.ageRatingCode(ageRatingCode)) }
    for glitch in StoreGlitch.allCases where glitches[glitch.rawValue] != base.glitches[glitch.rawValue] {
      changes.append(.glitch(glitch, glitches[glitch.rawValue] ?? .off))
    }
    for api in StoreAPI.allCases where failures[api.rawValue] != base.failures[api.rawValue] {
      changes.append(.failure(api, failures[api.rawValue]))
    }
    return changes
  }
}
