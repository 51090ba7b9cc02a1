import Foundation
internal import StoreEngine

/// iOS 27's `AppStore.presentOfferCodeRedeemSheet`: the redemption's transaction returns to the
/// call, as a `purchase()` call's does (DECISIONS §45).
extension StoreKitEnvironment {
  /// Opens the sheet for a call (lock held): in an attached app, the storefront's sheet answers it
  /// later (``attendCodeSheet(_:)``); under a test session, the code the test entered is typed now.
  func openOfferCodeSheet(_ call: CheckedContinuation<Product.PurchaseResult, any Error>) {
    guard offerCodeSheetCall == nil else {
      reportMisuse("presentOfferCodeRedeemSheet was called while its sheet is open; await the first call.")
      return call.resume(throwing: StoreKitError.unknown)
    }
    guard let store = try? openStore() else { return call.resume(throwing: StoreKitError.unknown) }
    if store.configuration.attachment != nil, attachedSession != nil {
      offerCodeSheetCall = call
      presentCodeRedemptionSheet()
      return
    }
    guard !enteredOfferCodes.isEmpty else { return call.resume(returning: .userCancelled) }
    redeem(enteredOfferCodes.removeFirst(), for: call, in: store)
  }

  /// Redeems `code` for a waiting sheet call (lock held): the purchase it starts is the call's, as
  /// `purchase()`'s is; a refused code ends the call with its error.
  func redeem(_ code: String, for call: CheckedContinuation<Product.PurchaseResult, any Error>, in store: OpenStore) {
    let product = store.queue.productRedeemed(byCode: code)
    do {
      let step = try perform(.redeemOfferCode(code)) { store in
        if let product { store.view.willPerform(.buy(StoreEngine.Payment(productID: product))) }
      }
      guard let made = step.createdTransaction else { return call.resume(throwing: StoreKitError.unknown) }
      if let early = unclaimedPurchases.removeValue(forKey: made) {
        call.resume(with: early)
      } else {
        purchaseCalls[made] = call
      }
    } catch {
      if let product { store.view.forgetRequest(of: product) }
      call.resume(throwing: Self.offerCodeError(error))
    }
  }

  /// What the sheet's caller hears when the store refuses a code.
  static func offerCodeError(_ error: StorePerformError) -> any Error {
    switch error {
    case .engine(.offerCodeRefused(_, let why)): storeKit2Error(why.storeKitError)
    case .engine(.unknownOfferCode): storeKit2Error(.invalidOfferIdentifier)
    default: StoreKitError.unknown
    }
  }
}
