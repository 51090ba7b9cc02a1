import StoreEngine
import StoreScenario

/// The TUI's words for engine errors: the one place that turns an ``EngineError`` into a notice,
/// naming the keys that fix it.
enum TUIErrorText {
  static func message(for error: EngineError) -> String {
    switch error {
    case .notSignedIn: "No sandbox account is signed in. Press i to sign in."
    case .unknownTransaction(let id): "No transaction '\(id)' in this account's history."
    case .notInterrupted(let id): "Transaction \(id) is neither an interrupted purchase nor in billing trouble; there is nothing to resolve."
    case .cannotFinishPurchasing(let id):
      // B27: a real app dies here; the simulator says so instead of shrugging it off.
      "\(AppCrash(error)?.description ?? "Transaction \(id) is still purchasing.") Answer its sheet first (Enter to buy, Esc to cancel)."
    case .unknownStorefront(let code, let near):
      "'\(code)' is not an App Store storefront.\(StorefrontSuggestion.didYouMean(near)) Pick one in Settings (3) → Storefront."
    case .purchaseTakenOver(let id, let owner):
      // The sheet is already closed; its row shows what the other device did.
      "This purchase was \(owner.map { "taken over on another device (session \($0))" } ?? "completed on another device"); nothing was charged here (transaction \(id))."
    default: error.description
    }
  }
}
