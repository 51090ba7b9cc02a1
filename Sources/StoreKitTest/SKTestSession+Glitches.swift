import Foundation
import StoreKit
internal import StoreEngine

/// The real App Store's glitches, switchable. **Storefront's own addition, not Apple's**: Xcode's
/// `SKTestSession` has nothing like it. Each glitch is one SDK vendors documented on devices
/// (DECISIONS §46, Docs/Fidelity.md B91–B96), so a test can prove that the app survives it.
extension SKTestSession {
  /// One of the real store's glitches (Storefront's addition).
  public enum StoreGlitch: String, CaseIterable, Sendable {
    /// `purchase()` returns `.userCancelled` although the purchase succeeded; the transaction
    /// arrives on `Transaction.updates` and stays in `Transaction.unfinished` (RevenueCat/purchases-ios#4903).
    case cancelledAfterSuccess = "cancelled-after-success"
    /// The purchase sheet never appears: `purchase()` waits until its task is cancelled (it then
    /// throws `CancellationError`) or the glitch is switched off (`StoreKitError.unknown`). Nothing is charged.
    case sheetNotShown = "sheet-not-shown"
    /// `Product.products(for:)` throws `StoreKitError.systemError` over `SKInternalErrorDomain` 3.
    case productsFail = "products-fail"
    /// `purchase()` throws `StoreKitError.systemError` over `NSCocoaErrorDomain` 4097 (the
    /// `storekitd` connection dropped). Nothing is charged.
    case daemonDrop = "daemon-drop"
    /// `Transaction.updates` emits each transaction 5 seconds of the session's clock late
    /// (``SKTestSession/advance(by:)`` moves it).
    case lateUpdates = "late-updates"
    /// A subscription's purchase throws `StoreKitError.userCancelled` (the "Turn Off Renewal Receipt
    /// Emails?" dialog was cancelled) although it went through; the transaction arrives on
    /// `Transaction.updates` (hyochan/react-native-iap#2930).
    case renewalReceiptDialog = "renewal-receipt-dialog"
  }

  /// When a glitch strikes; every choice is reproducible (Storefront's addition).
  public enum GlitchFrequency: Equatable, Sendable {
    case off
    /// Every call the glitch applies to.
    case always
    /// The next `n` calls it applies to, counted from this setting.
    case next(Int)
    /// About one call in `n`, the same calls on every run for the same `seed`.
    case oneIn(Int, seed: UInt64)
  }

  /// Switches one of the real store's glitches (Storefront's addition, not Apple's). Setting a
  /// glitch starts its count again, so `.next(1)` set twice strikes twice.
  ///
  /// - Throws: ``SKTestError/Code/invalidAction`` for `.next(n)` or `.oneIn(n, …)` with `n < 1`.
  public func setStoreGlitch(_ glitch: StoreGlitch, _ frequency: GlitchFrequency = .always) throws {
    guard let engineGlitch = StoreEngine.StoreGlitch(rawValue: glitch.rawValue) else { return }
    let setting: GlitchSetting
    switch frequency {
    case .off: setting = .off
    case .always: setting = .every
    case .next(let n):
      guard n >= 1 else { throw SKTestError(.invalidAction, message: "a glitch's count must be at least 1, not \(n)") }
      setting = .next(n)
    case .oneIn(let n, let seed):
      guard n >= 1 else { throw SKTestError(.invalidAction, message: "a glitch's count must be at least 1, not \(n)") }
      setting = .oneIn(n, seed: seed)
    }
    StoreKitEnvironment.shared.rearmGlitch(engineGlitch)
    try perform(.setControl(.glitch(engineGlitch, setting)))
  }

  /// How `glitch` is set now (Storefront's addition).
  public func storeGlitch(_ glitch: StoreGlitch) -> GlitchFrequency {
    guard let engineGlitch = StoreEngine.StoreGlitch(rawValue: glitch.rawValue),
      let setting = try? StoreKitEnvironment.shared.read({ $0.queue.controls.glitches[engineGlitch] })
    else { return .off }
    switch setting {
    case .off: return .off
    case .every: return .always
    case .next(let n): return .next(n)
    case .oneIn(let n, let seed): return .oneIn(n, seed: seed)
    }
  }
}
