extension StoreMachine {
  /// The app's queue delegate declined to continue a payment after the storefront changed: a payment
  /// still in progress (its sheet open or waiting) fails with `storeProductNotAvailable`, its sheet
  /// closes, and the next waiting payment's sheet shows. One that completed meanwhile is left as it is.
  mutating func discontinueAfterStorefrontChange(_ id: PaymentTransaction.ID) throws(EngineError) {
    guard let transaction = transactions[id], transaction.state == .purchasing, !transaction.isFinished else { return }
    if prompt?.transactionID == id {
      try ensureStillOwned(id)
      prompt = nil
      step.emit(.promptDismissed)
    }
    waitingForPrompt.removeAll { $0 == id }
    try fail(id, with: .storeProductNotAvailable)
    try presentNextPromptOrComplete()
  }

  /// The canonical code of the storefront `code` names (`usa` → `USA`). Only the App Store's
  /// storefronts exist (B63): anything else is refused, so no transaction is ever signed with a
  /// storefront Apple does not have.
  static func storefrontCode(_ code: String) throws(EngineError) -> String {
    guard let storefront = Storefront.lookup(code) else {
      throw .unknownStorefront(code, nearMatches: Storefront.nearMatches(to: code).map(\.code))
    }
    return storefront.code
  }
}
