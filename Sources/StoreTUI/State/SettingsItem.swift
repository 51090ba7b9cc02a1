import SimulatedApp
import StoreEngine

/// One row of the Settings pane: what it shows and what changing it does.
public enum SettingsItem: Equatable, Sendable {
  case account
  case signOut
  case askToBuy
  case interruptedPurchases
  case dialogs
  case canMakePayments
  case billingRetry
  case gracePeriod
  case failure(StoreAPI)
  case storefront
  case locale
  case timeRate
  /// What `AppStore.ageRatingCode` answers.
  case ageRating
  case clearHistory
  /// A parent or guardian withdraws consent for the account's use of the app (RESCIND_CONSENT).
  case rescindConsent
  case relaunch
  /// The app's server's notification URL for the store's environment (edit; empty clears).
  case notificationURL
  /// The fault every App Store Server API endpoint answers with (the data directory's fault plan).
  case serverFault
  /// The delay before every App Store Server API answer.
  case serverDelay
  /// When the simulated app finishes transactions: manually, at once, after its server answers.
  case appFinishes
  /// The app's own server, which it asks before finishing in the after-server mode (edit).
  case appServerURL
  /// One of the real store's glitches (DECISIONS §46): off, next, on, 1 in 5.
  case glitch(StoreGlitch)

  /// Every row, top to bottom.
  public static let all: [SettingsItem] =
    [.account, .signOut, .askToBuy, .interruptedPurchases, .dialogs, .canMakePayments, .billingRetry, .gracePeriod]
    + StoreAPI.allCases.map { .failure($0) }
    + [.storefront, .locale, .timeRate, .ageRating]
    // After the device's settings, before the actions: rows counted from either end keep their places.
    + StoreGlitch.allCases.map { .glitch($0) }
    + [.clearHistory, .rescindConsent, .relaunch, .notificationURL, .serverFault, .serverDelay]
    + [.appFinishes, .appServerURL]

  /// Errors a simulated failure cycles through (`nil` = none): StoreKit 1 codes, then StoreKit 2
  /// names (B6), then the server error.
  public static let failureChoices: [StoreKitError?] =
    [
      nil, .unknown, .clientInvalid, .paymentCancelled, .paymentInvalid, .paymentNotAllowed,
      .storeProductNotAvailable, .cloudServiceNetworkConnectionFailed,
    ]
    + [
      "userCancelled", "networkError", "systemError", "notAvailableInStorefront", "notEntitled", "invalidQuantity",
      "productUnavailable", "purchaseNotAllowed",
    ].map(StoreKitError.init(parsing:))
    + [.serverUnknown]

  /// Age rating codes the row cycles through (Apple's, as MarketplaceKit lists them; nil: unavailable).
  static let ageRatingChoices: [Int?] = [100, 200, 300, 600, 618, nil]

  /// An age rating code as the row shows it.
  static func ageRatingText(_ code: Int?) -> String {
    guard let code else { return "unavailable (nil)" }
    let names = [100: "4+", 200: "9+", 300: "12+", 600: "17+", 618: "18+"]
    return names[code].map { "\(code) (\($0))" } ?? String(code)
  }

  /// The row's label.
  public var label: String {
    switch self {
    case .account: "Account"
    case .signOut: "Sign out"
    case .askToBuy: "Ask to Buy"
    case .interruptedPurchases: "Interrupted purchases"
    case .dialogs: "Purchase dialogs"
    case .canMakePayments: "canMakePayments"
    case .billingRetry: "Billing retry on renewal"
    case .gracePeriod: "Billing grace period"
    case .failure(let api): "Fail \(api.catalogName)"
    case .storefront: "Storefront"
    case .locale: "Locale"
    case .timeRate: "Time rate"
    case .ageRating: "Age rating code"
    case .clearHistory: "Clear purchase history"
    case .rescindConsent: "Parental consent"
    case .relaunch: "Relaunch app"
    case .notificationURL: "Notification URL"
    case .serverFault: "Server fault (all endpoints)"
    case .serverDelay: "Server delay (all endpoints)"
    case .appFinishes: "App finishes transactions"
    case .appServerURL: "App's server URL"
    case .glitch(let glitch): glitch.label
    }
  }

  /// The row's current value.
  public func value(in state: AppState) -> String {
    let controls = state.controls
    switch self {
    case .account: return state.account ?? "Not signed in"
    case .signOut: return state.account == nil ? "—" : "Enter to sign out"
    case .askToBuy: return onOff(controls.askToBuy)
    case .interruptedPurchases: return onOff(controls.interruptedPurchases)
    case .dialogs: return onOff(controls.dialogsEnabled)
    case .canMakePayments: return onOff(controls.canMakePayments)
    case .billingRetry: return onOff(controls.billingRetry)
    case .gracePeriod: return onOff(controls.gracePeriod)
    case .failure(let api):
      guard let error = controls.failures[api]?.error else { return "none" }
      return error.storeKit2Name.map { "\($0) (StoreKit 2; SKError \(error.code))" } ?? "\(error.name) (\(error.code))"
    case .storefront: return "\(controls.storefront) (\(StorefrontChoices.currency(for: controls.storefront)))"
    case .locale: return controls.locale
    case .timeRate: return (TimeRate.preset(rawValue: controls.timeRate) ?? .realTime).name
    case .ageRating: return Self.ageRatingText(controls.ageRatingCode)
    case .clearHistory: return state.account.map { "Enter to clear \($0)'s history" } ?? "—"
    case .rescindConsent: return state.account == nil ? "—" : "Enter to withdraw it"
    case .relaunch: return "Enter to relaunch"
    case .notificationURL: return state.notificationURL ?? "off (Enter to set)"
    case .serverFault:
      guard let fault = state.serverFault else { return "— (needs a data directory)" }
      return fault.answer == .off ? "off" : fault.answer.rawValue
    case .serverDelay:
      guard let fault = state.serverFault else { return "— (needs a data directory)" }
      return fault.delayMilliseconds == 0 ? "none" : "\(fault.delayMilliseconds) ms"
    case .appFinishes:
      switch state.appFinisher.mode {
      case .manually: return "manually (f in Transactions)"
      case .atOnce: return "at once"
      case .afterServer: return "after its server answers 2xx"
      }
    case .appServerURL: return state.appServerURL ?? "not set (Enter to set)"
    case .glitch(let glitch): return (controls.glitches[glitch] ?? .off).description
    }
  }

  private func onOff(_ on: Bool) -> String { on ? "on" : "off" }

  /// What changing the row does (`step` is +1 for next/toggle, -1 for previous).
  func change(in state: AppState, step: Int) -> SettingsEffect {
    let controls = state.controls
    switch self {
    case .account:
      return .sheet(.signIn(SignInSheet(purpose: nil, account: state.account ?? "")))
    case .signOut:
      return state.account == nil ? .nothing : .command(.signOut)
    case .askToBuy: return .command(.setControl(.askToBuy(!controls.askToBuy)))
    case .interruptedPurchases: return .command(.setControl(.interruptedPurchases(!controls.interruptedPurchases)))
    case .dialogs: return .command(.setControl(.dialogs(!controls.dialogsEnabled)))
    case .canMakePayments: return .command(.setControl(.canMakePayments(!controls.canMakePayments)))
    case .billingRetry: return .command(.setControl(.billingRetry(!controls.billingRetry)))
    case .gracePeriod: return .command(.setControl(.gracePeriod(!controls.gracePeriod)))
    case .failure(let api):
      let current = controls.failures[api]?.error
      let choices = Self.failureChoices
      let index = choices.firstIndex { $0 == current } ?? 0
      return .command(.setControl(.failure(api, choices[cycle(index, step, choices.count)].map { SimulatedFailure(error: $0) })))
    case .storefront:
      let codes = StorefrontChoices.codes
      let index = codes.firstIndex(of: controls.storefront) ?? -step
      return .command(.setControl(.storefront(codes[cycle(index, step, codes.count)])))
    case .locale:
      let locales = StorefrontChoices.locales
      let index = locales.firstIndex(of: controls.locale) ?? -step
      return .command(.setControl(.locale(locales[cycle(index, step, locales.count)])))
    case .timeRate:
      let rates = TimeRate.all
      let current = TimeRate.preset(rawValue: controls.timeRate) ?? .realTime
      let index = rates.firstIndex(of: current) ?? 0
      return .command(.setControl(.timeRate(rates[cycle(index, step, rates.count)].rawValue)))
    case .ageRating:
      let codes = Self.ageRatingChoices
      let index = codes.firstIndex { $0 == controls.ageRatingCode } ?? 0
      return .command(.setControl(.ageRatingCode(codes[cycle(index, step, codes.count)])))
    case .clearHistory:
      guard let account = state.account else { return .nothing }
      return .sheet(.confirm(ConfirmSheet(
        title: "Clear Purchase History",
        message: "Remove every transaction of '\(account)'? Its purchases can no longer be restored.",
        confirmTitle: "Clear", command: .clearHistory)))
    case .rescindConsent:
      guard let account = state.account else { return .nothing }
      return .sheet(.confirm(ConfirmSheet(
        title: "Withdraw Parental Consent",
        message: "A parent withdraws consent for '\(account)' to use the app. The app's server gets RESCIND_CONSENT; StoreKit tells the app nothing.",
        confirmTitle: "Withdraw", command: .rescindConsent)))
    case .relaunch:
      return .command(.relaunch)
    case .notificationURL:
      return .sheet(.notificationURL(URLSheet(url: state.notificationURL ?? "")))
    case .serverFault:
      guard var fault = state.serverFault else { return .nothing }
      let answers = ServerFaultSetting.Answer.allCases
      fault.answer = answers[cycle(answers.firstIndex(of: fault.answer) ?? 0, step, answers.count)]
      return .command(.setServerFault(fault))
    case .serverDelay:
      guard var fault = state.serverFault else { return .nothing }
      let delays = ServerFaultSetting.delays
      fault.delayMilliseconds = delays[cycle(delays.firstIndex(of: fault.delayMilliseconds) ?? 0, step, delays.count)]
      return .command(.setServerFault(fault))
    case .appFinishes:
      // After-server needs a URL: without one, the cycle asks for it.
      let modes: [AppFinishMode?] = [.manually, .atOnce, state.appServerURL.map { .afterServer(url: $0) }]
      let current = modes.firstIndex { $0 == state.appFinisher.mode } ?? 0
      guard let next = modes[cycle(current, step, modes.count)] else {
        return .sheet(.notificationURL(URLSheet(url: "", purpose: .appServer)))
      }
      return .appFinishes(next)
    case .appServerURL:
      return .sheet(.notificationURL(URLSheet(url: state.appServerURL ?? "", purpose: .appServer)))
    case .glitch(let glitch):
      let choices = GlitchSetting.choices
      let index = choices.firstIndex(of: controls.glitches[glitch] ?? .off) ?? 0
      return .command(.setControl(.glitch(glitch, choices[cycle(index, step, choices.count)])))
    }
  }

  private func cycle(_ index: Int, _ step: Int, _ count: Int) -> Int {
    ((index + step) % count + count) % count
  }
}

/// What changing a setting asks for.
enum SettingsEffect: Equatable {
  case nothing
  case command(AppCommand)
  case sheet(Sheet)
  /// The simulated app's finishing mode (state only; the engine is not told).
  case appFinishes(AppFinishMode)
}
