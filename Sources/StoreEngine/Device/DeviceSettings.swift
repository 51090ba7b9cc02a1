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

  public init(_ controls: SandboxControls) {
    askToBuy = controls.askToBuy
    interruptedPurchases = controls.interruptedPurchases
    canMakePayments = controls.canMakePayments
    billingRetry = controls.billingRetry
    gracePeriod = controls.gracePeriod
    storefront = controls.storefront
    locale = controls.locale
    failures = Dictionary(uniqueKeysWithValues: controls.failures.map { ($0.key.rawValue, $0.value) })
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
    for api in StoreAPI.allCases where failures[api.rawValue] != base.failures[api.rawValue] {
      changes.append(.failure(api, failures[api.rawValue]))
    }
    return changes
  }
}
