import Foundation

/// A misbehaviour of the real App Store that SDK vendors documented, which a tester switches on to
/// prove that an app survives it (issue 36, DECISIONS §46). Off by default; each is reproducible
/// (``GlitchSetting``) and each is recoverable the way a careful app recovers.
///
/// This is Storefront's own addition: Apple's StoreKit and StoreKitTest have no such switch.
public enum StoreGlitch: String, Sendable, CaseIterable, Hashable, Codable {
  /// `Product.purchase()` returns `.userCancelled` although the purchase succeeded; the transaction
  /// arrives on `Transaction.updates` and stays unfinished (RevenueCat/purchases-ios#4903; RevenueCat's
  /// "iOS 18.3.1-18.5 Canceled State After Successful Purchase").
  case cancelledAfterSuccess = "cancelled-after-success"
  /// The purchase sheet never appears: `purchase()` does not return until the app gives up
  /// (its task is cancelled) or the glitch is switched off; nothing is charged (RevenueCat's "iOS
  /// 18.2.X Purchase Sheet May Fail to Appear").
  case sheetNotShown = "sheet-not-shown"
  /// `Product.products(for:)` throws Apple's internal error (`SKInternalErrorDomain` 3), and an
  /// `SKProductsRequest` fails with it (RevenueCat's "iOS 18.4-26 Simulator Fails to Load Products",
  /// purchases-ios#6897).
  case productsFail = "products-fail"
  /// The connection to `storekitd` drops: `purchase()` throws `StoreKitError.systemError` over
  /// `NSCocoaErrorDomain` 4097; no money moves (RevenueCat's "iOS 18-18.3.2 Purchases May Fail Due to
  /// StoreKit Daemon Connection Issue").
  case daemonDrop = "daemon-drop"
  /// `Transaction.updates` emits each transaction ``lateUpdatesDelay`` of virtual time late.
  case lateUpdates = "late-updates"
  /// The "Turn Off Renewal Receipt Emails?" dialog after a subscription purchase, cancelled:
  /// `purchase()` throws `StoreKitError.userCancelled` (SKErrorDomain 2 over ASDErrorDomain 907 and
  /// AMSErrorDomain 6) although the purchase went through; the transaction arrives on
  /// `Transaction.updates` (hyochan/react-native-iap#2930). Auto-renewable subscriptions only.
  case renewalReceiptDialog = "renewal-receipt-dialog"

  /// How late `Transaction.updates` is under ``lateUpdates``, in virtual seconds (RevenueCat: the
  /// purchase "correctly goes through a few seconds later").
  public static let lateUpdatesDelay: TimeInterval = 5

  /// The Settings pane's label.
  public var label: String {
    switch self {
    case .cancelledAfterSuccess: "Glitch: cancelled after success"
    case .sheetNotShown: "Glitch: sheet never appears"
    case .productsFail: "Glitch: products fail to load"
    case .daemonDrop: "Glitch: daemon connection drops"
    case .lateUpdates: "Glitch: Transaction.updates late"
    case .renewalReceiptDialog: "Glitch: renewal receipt dialog"
    }
  }
}

/// When a glitch strikes. Every choice is deterministic: `oneIn` draws from a ``SplitMix64`` seeded
/// with its seed and the number of the call, so the same calls strike the same way on every run.
public enum GlitchSetting: Sendable, Hashable, Codable, CustomStringConvertible {
  case off
  /// Every call it applies to.
  case every
  /// The next `n` calls it applies to (from when it was set), then no more.
  case next(Int)
  /// About one call in `n`, chosen by `seed`.
  case oneIn(Int, seed: UInt64)

  /// The settings the TUI row cycles through.
  public static let choices: [GlitchSetting] = [.off, .next(1), .every, .oneIn(5, seed: 1)]

  /// `off`, `on`, `next`, `next N`, `1-in N seed S` (the scenario verb's and the ledger's text).
  public init?(parsing text: String) {
    let words = text.split(separator: " ").map(String.init)
    switch words.first {
    case "off" where words.count == 1: self = .off
    case "on" where words.count == 1, "every" where words.count == 1: self = .every
    case "next":
      if words.count == 1 { self = .next(1); return }
      guard words.count == 2, let n = Int(words[1]), n > 0 else { return nil }
      self = .next(n)
    case "1-in":
      guard words.count >= 2, let n = Int(words[1]), n > 0 else { return nil }
      var seed: UInt64 = 1
      if words.count == 4, words[2] == "seed", let s = UInt64(words[3]) { seed = s } else if words.count != 2 { return nil }
      self = .oneIn(n, seed: seed)
    default: return nil
    }
  }

  public var description: String {
    switch self {
    case .off: "off"
    case .every: "on"
    case .next(let n): n == 1 ? "next" : "next \(n)"
    case .oneIn(let n, let seed): "1-in \(n) seed \(seed)"
    }
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let setting = GlitchSetting(parsing: text) else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no glitch setting: \(text)"))
    }
    self = setting
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Whether call number `n` (0-based, counted from when the setting was made) strikes.
  public func strikes(call n: Int) -> Bool {
    switch self {
    case .off: return false
    case .every: return true
    case .next(let count): return n < count
    case .oneIn(let chance, let seed):
      var generator = SplitMix64(seed: seed &+ UInt64(n) &* 0x2545_F491_4F6C_DD1D)
      return generator.next() % UInt64(chance) == 0
    }
  }
}

/// The calls one process's front end made to each glitch since it was last set: where each
/// ``GlitchSetting`` is in its count. A front end (the StoreKit library, the scenario runner) keeps
/// one and draws from it, so the settings themselves stay plain values the storefront shares.
public struct GlitchDraws: Sendable, Equatable {
  private var seen: [StoreGlitch: GlitchSetting] = [:]
  private var calls: [StoreGlitch: Int] = [:]

  public init() {}

  /// Whether `glitch` strikes this call, counting the call.
  public mutating func draw(_ glitch: StoreGlitch, in controls: SandboxControls) -> Bool {
    let setting = controls.glitches[glitch] ?? .off
    if seen[glitch] != setting {
      seen[glitch] = setting
      calls[glitch] = 0
    }
    guard setting != .off else { return false }
    let n = calls[glitch] ?? 0
    calls[glitch] = n + 1
    return setting.strikes(call: n)
  }

  /// Whether `glitch` is set to anything but off, without counting a call.
  public func isOn(_ glitch: StoreGlitch, in controls: SandboxControls) -> Bool {
    (controls.glitches[glitch] ?? .off) != .off
  }

  /// Starts `glitch`'s count again (it was set, even to the same value: `next` is armed again).
  public mutating func rearm(_ glitch: StoreGlitch) {
    seen[glitch] = nil
    calls[glitch] = nil
  }
}
