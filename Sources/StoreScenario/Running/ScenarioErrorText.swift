import StoreEngine

/// The scenario language's (and the CLI's) words for engine errors: the one place that turns an
/// ``EngineError`` into a sentence that names verbs and commands.
public enum ScenarioErrorText {
  /// The sentence for `error`: the engine's own description, or for errors a scenario author can
  /// fix, one that says how (with the verb or command to use).
  public static func message(for error: EngineError) -> String {
    switch error {
    case .unknownTransaction(let id):
      "No transaction '\(id)' in this account's history. List them with `storefront transactions`."
    case .notSignedIn: "No sandbox account is signed in. Sign in with `account NAME`."
    case .noPrompt: "No purchase or sign-in sheet is showing; there is nothing to `confirm` or `cancel`."
    case .notInterrupted(let id):
      "Transaction \(id) is not an interrupted purchase or a billing issue; there is nothing to `resolve`."
    case .unknownStorefront(let code, let near):
      "Unknown storefront '\(code)'.\(StorefrontSuggestion.didYouMean(near)) Use an App Store storefront's ISO 3166-1 alpha-3 code, e.g. `set storefront USA` or `set storefront KOR`."
    default: error.description
    }
  }
}
