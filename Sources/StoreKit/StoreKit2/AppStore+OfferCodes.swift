import Foundation
internal import StoreEngine

/// An option that customizes an offer-code redemption (iOS 27). Pass a set of them to
/// ``AppStore/presentOfferCodeRedeemSheet(options:)``; Apple's SDK declares no options yet.
public struct RedeemOption: Equatable, Hashable, Sendable {}

extension AppStore {
  /// iOS 27's offer-code redemption sheet, returning the transaction the redemption makes.
  ///
  /// Apple's `presentOfferCodeRedeemSheet(from:options:)` takes the `UIViewController` (iOS) or
  /// `NSWindow` (macOS) that shows the sheet; Linux has neither, so Storefront's form has no
  /// presenting context (DECISIONS §45). The sheet is the store's:
  /// - In a program attached to a storefront, the storefront's TUI shows its Redeem Code sheet
  ///   naming the app; the customer types a code (or pastes a redemption URL) and the call
  ///   returns the purchase it made, once confirmed.
  /// - Under an `SKTestSession` nobody types: the test enters the code first with
  ///   `SKTestSession.enterOfferCode(_:)`; with none entered the sheet is closed at once.
  ///
  /// - Throws: `StoreKitError.userCancelled` when the sheet or the purchase sheet after it is
  ///   cancelled; `Product.PurchaseError.invalidOfferIdentifier` for a code the store does not know
  ///   or will not redeem any more (used, used up, expired) and `.ineligibleForOffer` for a
  ///   customer who redeemed a code of the offer already (nothing is charged); `StoreKitError.unknown`
  ///   when a sheet is already open or the store cannot be opened.
  @MainActor
  public static func presentOfferCodeRedeemSheet(options: Set<RedeemOption> = []) async throws -> VerificationResult<Transaction> {
    let environment = StoreKitEnvironment.shared
    let result: Product.PurchaseResult = try await withCheckedThrowingContinuation { continuation in
      environment.locked { environment.openOfferCodeSheet(continuation) }
    }
    switch result {
    case .success(let verification): return verification
    case .userCancelled: throw StoreKitError.userCancelled
    // Ask to Buy: the redemption waits for the parent; its outcome comes in `Transaction.updates`.
    case .pending: throw StoreKitError.unknown
    }
  }
}
