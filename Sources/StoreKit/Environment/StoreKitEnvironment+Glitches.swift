import Foundation
package import StoreEngine

/// The real store's glitches as an app hears them (``StoreEngine/StoreGlitch``, DECISIONS §46):
/// the ledger keeps what happened; only what the app is told changes. Lock held throughout.
extension StoreKitEnvironment {
  /// Whether `glitch` strikes this call (counting it). An attached app writes what it heard to its
  /// log, so the storefront's Log pane shows the glitch beside the callbacks.
  func glitchStrikes(_ glitch: StoreGlitch, in store: OpenStore, note: @autoclosure () -> String) -> Bool {
    guard glitchDraws.draw(glitch, in: store.queue.controls) else { return false }
    if store.configuration.attachment != nil { writeAppLog(["glitch \(glitch.rawValue): \(note())"], in: store) }
    return true
  }

  /// Starts `glitch`'s count again, in this process's draws and in the StoreKit 2 view's (a test set
  /// it, even to the same value: `next` strikes again).
  package func rearmGlitch(_ glitch: StoreGlitch) {
    locked {
      glitchDraws.rearm(glitch)
      currentStore?.view.rearm(glitch)
    }
  }

  /// Apple's internal error for products that do not load (`SKInternalErrorDomain` 3, purchases-ios#6897).
  static var productsInternalError: StoreKitError {
    .systemError(NSError(domain: "SKInternalErrorDomain", code: 3, userInfo: [NSLocalizedDescriptionKey: "The operation couldn’t be completed. (SKInternalErrorDomain error 3.)"]))
  }

  /// The error a dropped `storekitd` connection throws (RevenueCat: `NSCocoaErrorDomain` 4097).
  static var daemonConnectionError: StoreKitError {
    .systemError(NSError(domain: NSCocoaErrorDomain, code: 4097, userInfo: ["NSDebugDescription": "connection to service named com.apple.storekitd"]))
  }

  /// After every step: `Transaction.updates` results whose delay has passed on the store's clock
  /// are emitted, and calls stuck on a sheet that never appeared end once the glitch is off (with
  /// `StoreKitError.unknown`: on a device they would never return; nothing was charged).
  func attendGlitches(_ store: OpenStore) {
    if !heldUpdates.isEmpty {
      let now = store.queue.now
      let due = heldUpdates.filter { $0.due <= now }
      heldUpdates.removeAll { $0.due <= now }
      for held in due {
        for listener in updateListeners.values { listener.yield(held.result) }
      }
    }
    if !stuckPurchases.isEmpty, !glitchDraws.isOn(.sheetNotShown, in: store.queue.controls) {
      let stuck = stuckPurchases
      stuckPurchases = [:]
      for (_, call) in stuck.sorted(by: { $0.key < $1.key }) { call.resume(throwing: StoreKitError.unknown) }
    }
  }

  /// A number for a `purchase()` call that may get stuck.
  func reserveStuckPurchase() -> UInt64 {
    locked {
      defer { nextStuckPurchase += 1 }
      return nextStuckPurchase
    }
  }

  /// Parks a `purchase()` call whose sheet never appeared (lock held). A call whose task is already
  /// cancelled ends at once.
  func park(_ call: CheckedContinuation<Product.PurchaseResult, any Error>, as number: UInt64) {
    if Task.isCancelled {
      call.resume(throwing: CancellationError())
    } else {
      stuckPurchases[number] = call
    }
  }

  /// How many `purchase()` calls wait on a sheet that never appeared.
  package var stuckPurchaseCount: Int { locked { stuckPurchases.count } }

  /// The app gave up on a stuck call (its task was cancelled): the call throws `CancellationError`.
  func giveUp(stuck number: UInt64) {
    locked { stuckPurchases.removeValue(forKey: number)?.resume(throwing: CancellationError()) }
  }
}
